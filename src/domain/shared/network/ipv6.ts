import { formatIpv4, parseDottedQuad } from './ipv4';

/**
 * IPv6 literals: eight hex groups, one `::` run of zeros, an optional embedded dotted IPv4 tail
 * (`::ffff:127.0.0.1`). Zone ids (`%eth0`) are not accepted: they only make sense on scoped,
 * non-public addresses.
 */
export function parseIpv6(text: string): number[] | null {
  if (!/^[0-9a-f:.]+$/i.test(text) || text.length > 45) return null;
  let head = text;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    const quad = parseDottedQuad(text.slice(lastColon + 1));
    if (!quad) return null;
    tail = [(quad[0]! << 8) | quad[1]!, (quad[2]! << 8) | quad[3]!];
    head = text.slice(0, lastColon + 1);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  const all = [...left, ...right];
  if (all.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  const present = all.length + tail.length;
  if (halves.length === 1 ? present !== 8 : present > 7) return null;
  const words = [...left.map((g) => parseInt(g, 16)), ...new Array(8 - present).fill(0), ...right.map((g) => parseInt(g, 16)), ...tail];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/** Canonical RFC 5952 text: lowercase, longest zero run compressed, mapped IPv4 dotted. */
export function formatIpv6(bytes: readonly number[]): string {
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((bytes[i]! << 8) | bytes[i + 1]!);
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) return `::ffff:${formatIpv4(bytes.slice(12))}`;
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
