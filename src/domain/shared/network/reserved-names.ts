/**
 * Names that never denote a public host: special-use and private-use suffixes (RFC 6761, 6762,
 * 8375, 9476, ICANN's `.internal`) and suffixes widely used on private networks.
 */
const RESERVED_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'home.arpa',
  'localdomain',
  'lan',
  'home',
  'corp',
  'intranet',
  'private',
  'test',
  'invalid',
  'example',
  'onion',
  'alt',
];

/** A lowercase name without trailing dot: single-label names and reserved suffixes are reserved. */
export function isReservedName(name: string): boolean {
  if (!name.includes('.')) return true;
  return RESERVED_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}
