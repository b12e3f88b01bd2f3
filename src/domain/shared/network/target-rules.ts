import { classifyAddress } from './address-class';
import { type Cidr, cidrContains } from './cidr';
import type { IpAddress } from './ip-address';

/** Public, or inside a range the operator allowlisted (CHECK_PRIVATE_ALLOWLIST). */
export function isAllowedAddress(address: IpAddress, allowlist: readonly Cidr[]): boolean {
  return classifyAddress(address) === 'public' || allowlist.some((cidr) => cidrContains(cidr, address));
}

export type ResolutionVerdict = 'allowed' | 'nonPublicAddress' | 'unresolvable';

/**
 * A name is a public target only when it resolves and every address it resolves to is allowed:
 * one private answer among public ones is how rebinding attacks start.
 */
export function judgeResolution(addresses: readonly IpAddress[], allowlist: readonly Cidr[]): ResolutionVerdict {
  if (addresses.length === 0) return 'unresolvable';
  return addresses.every((a) => isAllowedAddress(a, allowlist)) ? 'allowed' : 'nonPublicAddress';
}
