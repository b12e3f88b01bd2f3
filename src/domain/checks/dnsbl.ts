import { down, type DnsblListing, type Finding } from './check-result';

/** A blocklist zone the service queries, with where a listed address asks to be removed. */
export interface DnsblZone {
  readonly zone: string;
  readonly name: string;
  readonly delistUrl: string;
}

/** The query label of an address: reversed octets for IPv4, reversed nibbles for IPv6. Null if not an IP. */
export function reversedIpLabel(ip: string): string | null {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (v4) {
    const octets = v4.slice(1).map(Number);
    return octets.every((o, i) => o <= 255 && String(o) === v4[i + 1]) ? octets.reverse().join('.') : null;
  }
  const nibbles = expandIpv6(ip);
  return nibbles ? [...nibbles].reverse().join('.') : null;
}

/** The 32 hex nibbles of an IPv6 address, or null. */
function expandIpv6(ip: string): string | null {
  if (!/^[0-9a-f:]+$/i.test(ip) || ip.split('::').length > 2) return null;
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, null];
  const parts = (s: string | null | undefined) => (s ? s.split(':') : []);
  const left = parts(head);
  const right = parts(tail);
  const missing = 8 - left.length - right.length;
  if ((tail === null && missing !== 0) || (tail !== null && missing < 1)) return null;
  const groups = [...left, ...Array<string>(tail === null ? 0 : missing).fill('0'), ...right];
  if (groups.some((g) => g.length === 0 || g.length > 4)) return null;
  return groups
    .map((g) => g.padStart(4, '0'))
    .join('')
    .toLowerCase();
}

/**
 * An A answer of 127.0.0.x means listed. Answers outside 127/8, and the 127.255.255.x range some
 * lists use to refuse a resolver, are errors rather than listings.
 */
export function classifyDnsblAnswer(address: string): 'listed' | 'error' {
  if (!address.startsWith('127.')) return 'error';
  if (address.startsWith('127.255.255.')) return 'error';
  return 'listed';
}

export function evaluateDnsbl(listings: readonly DnsblListing[], failedZones: readonly string[], checkedZones: number): Finding[] {
  if (listings.length > 0) {
    return [
      down(
        'dnsblListed',
        `Listed on ${listings.length} blocklist${listings.length === 1 ? '' : 's'}: ${listings.map((l) => l.name).join(', ')}`,
      ),
    ];
  }
  if (checkedZones > 0 && failedZones.length === checkedZones) {
    return [down('dnsblLookupFailed', `No blocklist could be queried (${failedZones.join(', ')})`)];
  }
  return [];
}
