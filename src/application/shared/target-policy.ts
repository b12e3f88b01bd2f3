import { token } from './token';
/**
 * The one rule for what the service may connect to: public addresses only, unless the operator
 * allowlisted a range (CHECK_PRIVATE_ALLOWLIST). Monitor validation (create/update) and every
 * connection a check makes (connect time, addresses pinned) go through it.
 */
export type TargetRejection =
  /** Not a host at all: empty, bad characters, a bad IP literal, a port where none belongs... */
  | 'malformed'
  /** localhost, .local, .internal, .home.arpa, single-label names... */
  | 'reservedName'
  /** A literal or resolved address in a private, loopback, link-local, CGNAT, multicast, reserved or documentation range. */
  | 'nonPublicAddress'
  /** The name does not resolve through the configured resolvers. */
  | 'unresolvable';

export type TargetVetting =
  | { readonly ok: true; readonly hostname: string; readonly addresses: readonly string[] }
  | { readonly ok: false; readonly reason: TargetRejection };

export interface TargetPolicy {
  /**
   * Parses a host in any spelling (names with trailing dots, decimal/octal/hex IPv4, bracketed or
   * IPv4-mapped IPv6), refuses reserved names, resolves names through the configured resolvers and
   * answers the vetted addresses, which callers pin for the connection.
   */
  vet(host: string): Promise<TargetVetting>;
  /** For an address already in hand (a redirect hop, a socket's remote address). */
  isAllowedAddress(address: string): boolean;
}
export const TARGET_POLICY = token<TargetPolicy>('TargetPolicy');
