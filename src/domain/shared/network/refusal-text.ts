/**
 * Why a target (a URL or a host a check or a message would connect to) was refused, and how to fix
 * it, in words: the message of the 4xx that refuses it.
 */
const WHY: Readonly<Record<string, string>> = {
  malformed: 'is not a valid address',
  reservedName: 'names localhost or a reserved or single-label host; use a public name, or the IP address (and allow its range with CHECK_PRIVATE_ALLOWLIST)',
  nonPublicAddress: 'is or resolves to a private, loopback, link-local or metadata address; the operator can allow its range with CHECK_PRIVATE_ALLOWLIST',
  unresolvable: 'does not resolve to an address',
  notAName: 'must be a host name, not an address',
  notAnAddress: 'must be an IP address, not a name',
};

export function targetRefusal(field: string, reason: string, host?: string): string {
  return `${field}${host ? ` ${host}` : ''} ${WHY[reason] ?? `is refused (${reason})`}`;
}
