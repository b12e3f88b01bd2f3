import { endsInNumber, parseIpv4 } from './ipv4';
import { parseIpv6 } from './ipv6';
import { type IpAddress, ipv4, ipv6 } from './ip-address';
import { isReservedName } from './reserved-names';

export type ParsedHost = { readonly kind: 'ip'; readonly address: IpAddress } | { readonly kind: 'name'; readonly name: string };

export type HostParse =
  { readonly ok: true; readonly host: ParsedHost } | { readonly ok: false; readonly reason: 'malformed' | 'reservedName' };

const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

const malformed: HostParse = { ok: false, reason: 'malformed' };

/**
 * Parses a host exactly as a connecting client would read it, so what is vetted is what gets
 * dialled: IPv4 in any inet_aton spelling, IPv6 bracketed or bare, and DNS names (lowercased, one
 * trailing dot dropped). Whitespace, userinfo, paths, percent-escapes, zone ids and non-ASCII are
 * malformed; reserved and single-label names are refused, unless `reservedNames` allows them (a
 * target only a private network's probes check: its names are theirs to resolve).
 */
export function parseHost(raw: string, options: { readonly reservedNames?: boolean } = {}): HostParse {
  if (raw.length === 0 || raw.length > 255 || /[\s\u0000-\u001f\u007f]/.test(raw)) return malformed;
  if (raw.startsWith('[') || raw.includes(':')) {
    const inner = raw.startsWith('[') ? (raw.endsWith(']') ? raw.slice(1, -1) : null) : raw;
    const bytes = inner === null ? null : parseIpv6(inner);
    return bytes ? { ok: true, host: { kind: 'ip', address: ipv6(bytes) } } : malformed;
  }
  if (/[^a-zA-Z0-9._-]/.test(raw)) return malformed;
  const lower = raw.toLowerCase();
  if (endsInNumber(lower)) {
    const bytes = parseIpv4(lower);
    return bytes ? { ok: true, host: { kind: 'ip', address: ipv4(bytes) } } : malformed;
  }
  const name = lower.endsWith('.') ? lower.slice(0, -1) : lower;
  if (name.length === 0 || name.length > 253 || !name.split('.').every((label) => LABEL.test(label))) return malformed;
  if (isReservedName(name) && !options.reservedNames) return { ok: false, reason: 'reservedName' };
  return { ok: true, host: { kind: 'name', name } };
}
