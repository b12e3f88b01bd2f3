import { Resolver } from 'node:dns/promises';

/** The addresses a name resolves to (A and AAAA), empty when it does not resolve. */
export interface HostResolver {
  resolveAddresses(name: string): Promise<string[]>;
}

/**
 * A name's addresses with how long they may be kept: the least TTL of the records for an answer
 * with addresses; `negative` when the name has no addresses (NXDOMAIN, no A or AAAA record);
 * `ttlSeconds` 0 when nothing may be kept (a server failed or timed out on a part of the question).
 */
export interface DnsAnswer {
  readonly addresses: string[];
  readonly ttlSeconds: number;
  readonly negative: boolean;
}

/** A resolver that also tells how long its answers hold (what a cache in front of it needs). */
export interface TtlHostResolver extends HostResolver {
  resolveWithTtl(name: string): Promise<DnsAnswer>;
}

const NO_ANSWER = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);
type Records = Array<{ address: string; ttl: number }>;

/**
 * c-ares resolution through the configured servers (DNS_SERVERS), or the system's when none are
 * configured. Bounded: a server that does not answer makes the name unresolvable, not a hang.
 */
export class NodeDnsResolver implements TtlHostResolver {
  private readonly resolver: Resolver;

  constructor(servers: readonly string[], options: { timeoutMs?: number; tries?: number } = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: options.tries ?? 2 });
    if (servers.length > 0) this.resolver.setServers([...servers]);
  }

  async resolveAddresses(name: string): Promise<string[]> {
    return (await this.resolveWithTtl(name)).addresses;
  }

  async resolveWithTtl(name: string): Promise<DnsAnswer> {
    const [v4, v6] = await Promise.all([
      this.query(() => this.resolver.resolve4(name, { ttl: true })),
      this.query(() => this.resolver.resolve6(name, { ttl: true })),
    ]);
    if (v4 === 'failed' && v6 === 'failed') return { addresses: [], ttlSeconds: 0, negative: false };
    const records = [...(v4 === 'failed' ? [] : v4), ...(v6 === 'failed' ? [] : v6)];
    // Half an answer (one family failed) is used, never kept: the other half may come back next time.
    const partial = v4 === 'failed' || v6 === 'failed';
    return {
      addresses: records.map((r) => r.address),
      ttlSeconds: partial || records.length === 0 ? 0 : Math.min(...records.map((r) => r.ttl)),
      negative: records.length === 0 && !partial,
    };
  }

  private async query(lookup: () => Promise<Records>): Promise<Records | 'failed'> {
    try {
      return await lookup();
    } catch (error) {
      return NO_ANSWER.has((error as NodeJS.ErrnoException).code ?? '') ? [] : 'failed';
    }
  }
}
