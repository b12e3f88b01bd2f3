export const IP_FAMILIES = ['v4', 'v6'] as const;
export type IpFamily = (typeof IP_FAMILIES)[number];

export interface IpAddress {
  /** Canonical text: dotted quad for IPv4, RFC 5952 (compressed, lowercase) for IPv6. */
  readonly address: string;
  readonly family: IpFamily;
}

const OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEXTET = /^[0-9a-f]{1,4}$/i;

function parseV4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => OCTET.test(part))) return null;
  return parts.map(Number);
}

function hextets(text: string): number[] | null {
  if (text === '') return [];
  const parts = text.split(':');
  return parts.every((part) => HEXTET.test(part)) ? parts.map((part) => parseInt(part, 16)) : null;
}

/** Eight 16-bit groups, or null. Zone ids and brackets are refused. */
function parseV6(text: string): number[] | null {
  const lastColon = text.lastIndexOf(':');
  if (lastColon < 0) return null;
  let body = text;
  let tail: number[] = [];
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseV4(text.slice(lastColon + 1));
    if (!v4) return null;
    tail = [v4[0]! * 256 + v4[1]!, v4[2]! * 256 + v4[3]!];
    body = text.slice(0, lastColon + 1);
    if (!body.endsWith('::')) body = body.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  if (halves.length === 2) {
    const left = hextets(halves[0]!);
    const right = hextets(halves[1]!);
    if (!left || !right) return null;
    const missing = 8 - left.length - right.length - tail.length;
    return missing >= 1 ? [...left, ...new Array<number>(missing).fill(0), ...right, ...tail] : null;
  }
  const groups = body === '' ? null : hextets(body);
  if (!groups) return null;
  const all = [...groups, ...tail];
  return all.length === 8 ? all : null;
}

/** RFC 5952: lowercase, no leading zeros, the longest run (first on ties) of two or more zero groups as `::`. */
function compress(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/**
 * Parses an IPv4 or IPv6 literal into its canonical form, or answers null. IPv4 takes exactly four
 * decimal octets without leading zeros (no octal or shorthand spellings); an IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d) is the IPv4 address it maps.
 */
export function parseIpAddress(input: string): IpAddress | null {
  const text = input.trim();
  if (text.length === 0 || text.length > 64) return null;
  if (!text.includes(':')) {
    const v4 = parseV4(text);
    return v4 ? { address: v4.join('.'), family: 'v4' } : null;
  }
  const groups = parseV6(text);
  if (!groups) return null;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high, low] = [groups[6]!, groups[7]!];
    return { address: [high >> 8, high & 255, low >> 8, low & 255].join('.'), family: 'v4' };
  }
  return { address: compress(groups), family: 'v6' };
}
