import { Resolver } from 'node:dns/promises';

/** The addresses a name resolves to (A and AAAA), empty when it does not resolve. */
export interface HostResolver {
  resolveAddresses(name: string): Promise<string[]>;
}

const NO_ANSWER = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * c-ares resolution through the configured servers (DNS_SERVERS), or the system's when none are
 * configured. Bounded: a server that does not answer makes the name unresolvable, not a hang.
 */
export class NodeDnsResolver implements HostResolver {
  private readonly resolver: Resolver;

  constructor(servers: readonly string[], options: { timeoutMs?: number; tries?: number } = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 2000, tries: options.tries ?? 2 });
    if (servers.length > 0) this.resolver.setServers([...servers]);
  }

  async resolveAddresses(name: string): Promise<string[]> {
    const [v4, v6] = await Promise.all([this.query(() => this.resolver.resolve4(name)), this.query(() => this.resolver.resolve6(name))]);
    if (v4 === 'failed' && v6 === 'failed') return [];
    return [...(v4 === 'failed' ? [] : v4), ...(v6 === 'failed' ? [] : v6)];
  }

  private async query(lookup: () => Promise<string[]>): Promise<string[] | 'failed'> {
    try {
      return await lookup();
    } catch (error) {
      return NO_ANSWER.has((error as NodeJS.ErrnoException).code ?? '') ? [] : 'failed';
    }
  }
}
