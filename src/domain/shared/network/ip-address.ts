import { formatIpv4, parseIpv4 } from './ipv4';
import { formatIpv6, parseIpv6 } from './ipv6';

/** An IP address as bytes (4 or 16) with its canonical text. */
export interface IpAddress {
  readonly version: 4 | 6;
  readonly bytes: readonly number[];
  readonly text: string;
}

export const ipv4 = (bytes: readonly number[]): IpAddress => ({ version: 4, bytes, text: formatIpv4(bytes) });
export const ipv6 = (bytes: readonly number[]): IpAddress => ({ version: 6, bytes, text: formatIpv6(bytes) });

/**
 * An address as resolvers and sockets report it: dotted IPv4 (any inet_aton spelling) or IPv6,
 * optionally bracketed. Null for anything else.
 */
export function parseIpAddress(text: string): IpAddress | null {
  const inner = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (inner.includes(':')) {
    const bytes = parseIpv6(inner);
    return bytes ? ipv6(bytes) : null;
  }
  if (!/^[0-9a-fx.]+$/i.test(inner)) return null;
  const bytes = parseIpv4(inner);
  return bytes ? ipv4(bytes) : null;
}

/** True when the first `prefix` bits of both byte arrays agree. */
export function samePrefix(a: readonly number[], b: readonly number[], prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 8) {
    const bits = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - bits)) & 0xff;
    if ((a[bit / 8]! & mask) !== (b[bit / 8]! & mask)) return false;
  }
  return true;
}
