import { type IpAddress, parseIpAddress, samePrefix } from './ip-address';
import { embeddedIpv4 } from './address-class';

export interface Cidr {
  readonly address: IpAddress;
  readonly prefix: number;
  readonly text: string;
}

/** `10.0.0.0/8`, `fd00::/8`, or a bare address (a /32 or /128). Null when malformed. */
export function parseCidr(text: string): Cidr | null {
  const [host, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined || !host) return null;
  const address = parseIpAddress(host);
  if (!address) return null;
  const max = address.version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { address, prefix, text: `${address.text}/${prefix}` };
}

/** True when the address, or the IPv4 address its IPv6 form carries, lies in the range. */
export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  const candidates = [address, embeddedIpv4(address)].filter((a): a is IpAddress => a !== null);
  return candidates.some((a) => a.version === cidr.address.version && samePrefix(a.bytes, cidr.address.bytes, cidr.prefix));
}
