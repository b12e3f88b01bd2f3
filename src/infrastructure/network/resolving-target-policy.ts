import type { TargetPolicy, TargetVetting } from '../../application/shared/target-policy';
import { parseHost } from '../../domain/shared/network/host';
import { parseIpAddress, type IpAddress } from '../../domain/shared/network/ip-address';
import { type Cidr, parseCidr } from '../../domain/shared/network/cidr';
import { isAllowedAddress, judgeResolution } from '../../domain/shared/network/target-rules';
import type { HostResolver } from './node-dns-resolver';

/**
 * The one target policy: parses the host in any spelling, refuses reserved names, resolves names
 * through the configured resolvers and allows only public addresses (or the operator's allowlist).
 */
export class ResolvingTargetPolicy implements TargetPolicy {
  private readonly allowlist: Cidr[];

  constructor(private readonly resolver: HostResolver, allowlist: readonly string[]) {
    this.allowlist = allowlist.map((text) => {
      const cidr = parseCidr(text);
      if (!cidr) throw new Error(`not a CIDR: ${text}`);
      return cidr;
    });
  }

  async vet(host: string): Promise<TargetVetting> {
    const parsed = parseHost(host);
    if (!parsed.ok) return parsed;
    if (parsed.host.kind === 'ip') {
      const { address } = parsed.host;
      return isAllowedAddress(address, this.allowlist)
        ? { ok: true, hostname: address.text, addresses: [address.text] }
        : { ok: false, reason: 'nonPublicAddress' };
    }
    const answers = await this.resolver.resolveAddresses(parsed.host.name);
    const addresses = answers.map((a) => parseIpAddress(a)).filter((a): a is IpAddress => a !== null);
    const verdict = judgeResolution(addresses, this.allowlist);
    if (verdict !== 'allowed') return { ok: false, reason: verdict };
    return { ok: true, hostname: parsed.host.name, addresses: addresses.map((a) => a.text) };
  }

  isAllowedAddress(address: string): boolean {
    const parsed = parseIpAddress(address);
    return parsed !== null && isAllowedAddress(parsed, this.allowlist);
  }
}
