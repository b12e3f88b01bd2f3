import type { TargetPolicy, TargetVetting } from '../../application/shared/target-policy';
import { parseHost } from '../../domain/shared/network/host';
import { parseIpAddress, type IpAddress } from '../../domain/shared/network/ip-address';
import { type Cidr, parseCidr } from '../../domain/shared/network/cidr';
import { isAllowedAddress, judgeResolution } from '../../domain/shared/network/target-rules';
import type { HostResolver } from './node-dns-resolver';

/** Most IP-literal verdicts kept; past that they are forgotten and judged again. */
const MAX_LITERAL_VERDICTS = 10_000;

/**
 * The one target policy: parses the host in any spelling, refuses reserved names, resolves names
 * through the configured resolvers and allows only public addresses (or the operator's allowlist).
 * A verdict on an IP literal depends on nothing but the literal and the allowlist, so it is kept: a
 * monitor of an address vets the same host on every check, and parsing and classifying it again is
 * a visible share of a bare connect's CPU. Names are asked of the resolver on every vetting (the
 * notification policy's resolver keeps answers for their TTL, the checks' asks the servers every
 * time) and their addresses judged every time, so a cached answer never bypasses the allowlist.
 */
export class ResolvingTargetPolicy implements TargetPolicy {
  private readonly allowlist: Cidr[];
  private readonly literals = new Map<string, TargetVetting>();

  constructor(
    private readonly resolver: HostResolver,
    allowlist: readonly string[],
    /**
     * Resolve reserved names (`intranet.corp`, `db.internal`, single labels) and judge their
     * addresses like any other's, instead of refusing the name: a probe on a private network, whose
     * owner's allowlist decides which of its addresses may be reached.
     */
    private readonly options: { readonly privateNames?: boolean } = {},
  ) {
    this.allowlist = allowlist.map((text) => {
      const cidr = parseCidr(text);
      if (!cidr) throw new Error(`not a CIDR: ${text}`);
      return cidr;
    });
  }

  async vet(host: string): Promise<TargetVetting> {
    const known = this.literals.get(host);
    if (known) return known;
    const parsed = parseHost(host, { reservedNames: this.options.privateNames });
    if (!parsed.ok) return parsed;
    if (parsed.host.kind === 'ip') {
      const { address } = parsed.host;
      const verdict: TargetVetting = isAllowedAddress(address, this.allowlist)
        ? Object.freeze({ ok: true, hostname: address.text, addresses: Object.freeze([address.text]) })
        : Object.freeze({ ok: false, reason: 'nonPublicAddress' });
      if (this.literals.size >= MAX_LITERAL_VERDICTS) this.literals.clear();
      this.literals.set(host, verdict);
      return verdict;
    }
    return this.vetName(parsed.host.name);
  }

  private async vetName(name: string): Promise<TargetVetting> {
    const answers = await this.resolver.resolveAddresses(name);
    const addresses = answers.map((a) => parseIpAddress(a)).filter((a): a is IpAddress => a !== null);
    const verdict = judgeResolution(addresses, this.allowlist);
    if (verdict !== 'allowed') return { ok: false, reason: verdict };
    return { ok: true, hostname: name, addresses: addresses.map((a) => a.text) };
  }

  isAllowedAddress(address: string): boolean {
    const parsed = parseIpAddress(address);
    return parsed !== null && isAllowedAddress(parsed, this.allowlist);
  }
}
