import type { TxtRecords } from '../../application/custom-domains/ports';
import type { ResolverFactory } from '../protocols/dns/resolver-factory';

/** Answers that mean "no such record" rather than "the resolvers failed". */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * TXT lookups through the resolvers the checks use (DNS_SERVERS, or the system's). Only the
 * operator's resolvers are asked, never a server the tenant names, so the proof is what the
 * service's own view of DNS shows.
 */
export class DnsTxtRecords implements TxtRecords {
  constructor(
    private readonly resolvers: ResolverFactory,
    private readonly timeoutMs = 5_000,
  ) {}

  async lookup(name: string): Promise<{ values: string[] } | { error: string }> {
    const resolver = this.resolvers.create(this.timeoutMs);
    try {
      const records = await resolver.resolveTxt(name);
      return { values: records.map((chunks) => chunks.join('')) };
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'EUNKNOWN';
      return ABSENT.has(code) ? { values: [] } : { error: `dns ${code}` };
    }
  }
}
