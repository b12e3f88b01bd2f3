import { type IpAddress, ipv4, samePrefix } from './ip-address';

/** Why an address is not a public target; `public` when it is one. */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'linkLocal'
  | 'sharedCgnat'
  | 'multicast'
  | 'documentation'
  | 'benchmark'
  | 'broadcast'
  | 'reserved';

type Range = [bytes: number[], prefix: number, cls: AddressClass];

const V4: Range[] = [
  [[0, 0, 0, 0], 8, 'unspecified'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'sharedCgnat'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'linkLocal'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'],
  [[192, 0, 2, 0], 24, 'documentation'],
  [[192, 88, 99, 0], 24, 'reserved'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'benchmark'],
  [[198, 51, 100, 0], 24, 'documentation'],
  [[203, 0, 113, 0], 24, 'documentation'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[255, 255, 255, 255], 32, 'broadcast'],
  [[240, 0, 0, 0], 4, 'reserved'],
];

const v6 = (prefixWords: number[]): number[] => {
  const bytes = new Array<number>(16).fill(0);
  prefixWords.forEach((w, i) => {
    bytes[2 * i] = w >> 8;
    bytes[2 * i + 1] = w & 0xff;
  });
  return bytes;
};

const V6: Range[] = [
  [v6([]), 128, 'unspecified'],
  [v6([0, 0, 0, 0, 0, 0, 0, 1]), 128, 'loopback'],
  [v6([0, 0, 0, 0, 0xffff]), 96, 'reserved'], // IPv4-translated (RFC 2765)
  [v6([]), 96, 'reserved'], // IPv4-compatible (deprecated)
  [v6([0x64, 0xff9b, 1]), 48, 'reserved'], // local-use NAT64
  [v6([0x100]), 64, 'reserved'], // discard-only
  [v6([0x2001, 0xdb8]), 32, 'documentation'],
  [v6([0x2001]), 23, 'reserved'], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  [v6([0x3fff]), 20, 'documentation'],
  [v6([0x5f00]), 16, 'reserved'], // SRv6 SIDs
  [v6([0xfc00]), 7, 'private'],
  [v6([0xfe80]), 10, 'linkLocal'],
  [v6([0xfec0]), 10, 'private'], // site-local (deprecated)
  [v6([0xff00]), 8, 'multicast'],
];

/**
 * The IPv4 address an IPv6 address stands for, where the IPv6 form only carries one: IPv4-mapped
 * (::ffff:a.b.c.d), NAT64 well-known prefix (64:ff9b::/96) and 6to4 (2002:aabb:ccdd::/48).
 */
export function embeddedIpv4(address: IpAddress): IpAddress | null {
  if (address.version !== 6) return null;
  const b = address.bytes;
  if (samePrefix(b, v6([0, 0, 0, 0, 0, 0xffff]), 96) || samePrefix(b, v6([0x64, 0xff9b]), 96)) return ipv4(b.slice(12));
  if (samePrefix(b, v6([0x2002]), 16)) return ipv4(b.slice(2, 6));
  return null;
}

/**
 * Classifies an address. Forms that carry an IPv4 address are judged by it; IPv6 outside global
 * unicast (2000::/3) is reserved.
 */
export function classifyAddress(address: IpAddress): AddressClass {
  const embedded = embeddedIpv4(address);
  if (embedded) return classifyAddress(embedded);
  const ranges = address.version === 4 ? V4 : V6;
  const hit = ranges.find(([bytes, prefix]) => samePrefix(address.bytes, bytes, prefix));
  if (hit) return hit[2];
  if (address.version === 6 && (address.bytes[0]! & 0xe0) !== 0x20) return 'reserved';
  return 'public';
}
