/** The numbers of the spec's Limits table for agent access, and the credential prefixes. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const IDENTITY_ASSERTION_TTL_SECONDS = 24 * 3600;
export const CLAIM_WINDOW_MS = 24 * 3600 * 1000;
export const CLAIM_POLL_INTERVAL_SECONDS = 5;
export const ID_JAG_MAX_AGE_SECONDS = 3600;

export const REGISTRATION_ID_PREFIX = 'reg_';
export const CLAIM_TOKEN_PREFIX = 'clm_';
export const ACCESS_TOKEN_PREFIX = 'wsma_';
export const CONSENT_CODE_PREFIX = 'cns_';
