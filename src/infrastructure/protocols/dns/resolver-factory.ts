import { Resolver } from 'node:dns/promises';
import type { Deadline } from '../../../application/checks/ports';

/**
 * node:dns resolvers: the operator's DNS_SERVERS (ip or ip:port, so a loopback test server on
 * 127.0.0.1:5353 works) or the system's, or one server a check names.
 */
export class ResolverFactory {
  constructor(private readonly servers: readonly string[]) {}

  /** The service's resolvers as configured (for messages and evidence). */
  describe(): string {
    return this.servers.length ? this.servers.join(', ') : 'system';
  }

  create(timeoutMs: number, servers: readonly string[] = this.servers): Resolver {
    const resolver = new Resolver({ timeout: Math.max(100, Math.min(timeoutMs, 10_000)), tries: 2 });
    if (servers.length) resolver.setServers([...servers]);
    return resolver;
  }
}

/** Cancels the resolver's queries when the check's deadline passes. */
export function cancelAtDeadline(resolver: Resolver, deadline: Deadline): () => void {
  return deadline.onPassed(() => resolver.cancel());
}
