import { normalizeDomainName } from '../tenancy/domain-name';
import { isReservedName } from '../shared/network/reserved-names';

/**
 * The canonical form of a claimed hostname, from a name already converted to ASCII (IDNs arrive
 * as punycode at the edge): lower case, no trailing dot. A public DNS name of two labels or more:
 * a port, an IP literal, a single label or a private-use suffix (`.local`, `.internal`...) is not
 * a hostname a browser could reach us under. Answers null when it is not one.
 */
export function normalizeClaimHostname(input: string): string | null {
  const name = normalizeDomainName(input);
  return name === null || isReservedName(name) ? null : name;
}

/**
 * The platform's own host (PUBLIC_BASE_URL's, lower case, without port) and every name under it
 * belong to the platform: claiming them would let a tenant answer for the platform.
 */
export function isPlatformHostname(hostname: string, platformHost: string): boolean {
  return hostname === platformHost || hostname.endsWith(`.${platformHost}`);
}

/**
 * A Host header (or X-Forwarded-Host value) reduced to a hostname to look up: lower case, without
 * port or trailing dot. Answers null for IP literals and anything else that is not a name.
 */
export function hostnameOfHostHeader(header: string | undefined): string | null {
  if (!header) return null;
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) return null;
  const withoutPort = host.replace(/:\d{1,5}$/, '').replace(/\.$/, '');
  return /^[a-z0-9.-]{1,253}$/.test(withoutPort) && /[a-z]/.test(withoutPort.split('.').pop() ?? '') ? withoutPort : null;
}
