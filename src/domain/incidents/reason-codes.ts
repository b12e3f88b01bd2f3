/**
 * Reason codes of the checkers that start a reminder series rather than (only) an outage: a
 * certificate close to expiry, an address on a blocklist. The series ends with the next up result.
 */
export const SSL_EXPIRY_REASON_CODES: readonly string[] = ['sslExpiringSoon', 'sslExpired'];
export const DNSBL_REASON_CODES: readonly string[] = ['dnsblListed'];
