import { lookup } from 'node:dns/promises';
import net from 'node:net';
import type { TargetPolicy, TargetVetting } from '../../src/application/shared/target-policy';

const isLoopback = (address: string) => address === '::1' || /^127\./.test(address) || /^::ffff:127\./.test(address);

/**
 * TEST SUPPORT ONLY: a stand-in for the real target policy (built on the monitors branch) that
 * resolves names with node:dns and admits loopback addresses only, so protocol tests can reach their
 * peers on 127.0.0.1 while anything else counts as non-public.
 */
export class LoopbackTargetPolicy implements TargetPolicy {
  async vet(host: string): Promise<TargetVetting> {
    const bare = host.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
    if (!bare) return { ok: false, reason: 'malformed' };
    let addresses: string[];
    if (net.isIP(bare)) addresses = [bare];
    else {
      try {
        addresses = (await lookup(bare, { all: true })).map((a) => a.address);
      } catch {
        return { ok: false, reason: 'unresolvable' };
      }
    }
    if (addresses.length === 0) return { ok: false, reason: 'unresolvable' };
    if (!addresses.every(isLoopback)) return { ok: false, reason: 'nonPublicAddress' };
    return { ok: true, hostname: bare, addresses };
  }

  isAllowedAddress(address: string): boolean {
    return isLoopback(address);
  }
}

/** TEST SUPPORT ONLY: refuses every target, to prove adapters ask the policy before connecting. */
export class RejectingTargetPolicy implements TargetPolicy {
  async vet(): Promise<TargetVetting> {
    return { ok: false, reason: 'nonPublicAddress' };
  }

  isAllowedAddress(): boolean {
    return false;
  }
}
