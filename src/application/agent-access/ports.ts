import type { AgentRegistration } from '../../domain/agent-access/agent-registration';
import type { AgentAccessToken } from '../../domain/agent-access/agent-access-token';
import type { ConsentRequest } from '../../domain/agent-access/consent-request';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { token } from '../shared/token';
import type { Transaction } from '../shared/transaction';

export interface AgentRegistrationRepository {
  /** `tx`: the caller's transaction, which the write joins (without it, the write stands alone). */
  add(registration: AgentRegistration, tx: Transaction): Promise<void>;
  findById(id: string): Promise<AgentRegistration | null>;
  findByClaimTokenHash(hash: string): Promise<AgentRegistration | null>;
  findByUserCodeHash(hash: string): Promise<AgentRegistration | null>;
  /** Registrations of a trusted issuer's subject for one client, newest first. */
  findIdJag(issuer: string, subject: string, clientId: string): Promise<AgentRegistration[]>;
  /** A trusted issuer's registrations for a subject, or for any subject bound to one of the users. */
  findByIssuer(issuer: string, match: { subject?: string; userIds?: string[]; ids?: string[] }): Promise<AgentRegistration[]>;
  /** Approved registrations in the tenant scope, optionally only those one user authorized. */
  listApproved(scope: TenantScope, authorizedBy: string | null): Promise<AgentRegistration[]>;
  /** Optimistic: a stale version throws `conflict`. */
  save(registration: AgentRegistration, tx: Transaction): Promise<void>;
  /**
   * Deletes registrations never claimed whose window closed before `closedBefore`, and those revoked
   * before `revokedBefore`. It stands alone on the pool, with no tx: one statement, run by the purge
   * job, with no other write to join.
   */
  purge(closedBefore: Date, revokedBefore: Date): Promise<number>;
}
export const AGENT_REGISTRATION_REPOSITORY = token<AgentRegistrationRepository>('AgentRegistrationRepository');

export interface AgentAccessTokenRepository {
  /** Written in the caller's transaction (`tx`). */
  add(token: AgentAccessToken, tx: Transaction): Promise<void>;
  findByHash(tokenHash: string): Promise<AgentAccessToken | null>;
  revoke(token: AgentAccessToken, tx: Transaction): Promise<void>;
  /** Revokes every live token of the registrations. */
  revokeForRegistrations(registrationIds: string[], now: Date, tx: Transaction): Promise<void>;
  /** Last minting per registration, for the connections list. */
  lastIssuedAt(registrationIds: string[]): Promise<Map<string, Date>>;
  /**
   * Deletes tokens that expired before the given time. It stands alone on the pool, with no tx: one
   * statement, run by the purge job, with no other write to join.
   */
  purgeExpired(before: Date): Promise<number>;
}
export const AGENT_ACCESS_TOKEN_REPOSITORY = token<AgentAccessTokenRepository>('AgentAccessTokenRepository');

export interface ConsentRequestRepository {
  /** `tx`: the caller's transaction, which the write joins (without it, the write stands alone). */
  add(request: ConsentRequest, tx: Transaction): Promise<void>;
  findByCode(code: string): Promise<ConsentRequest | null>;
  findByRegistration(registrationId: string): Promise<ConsentRequest | null>;
  /** Optimistic: a stale version throws `conflict`. */
  save(request: ConsentRequest, tx: Transaction): Promise<void>;
}
export const CONSENT_REQUEST_REPOSITORY = token<ConsentRequestRepository>('ConsentRequestRepository');

/**
 * The outcome of checking a JWT: valid, or signed by a party we know but unacceptable (bad
 * signature, alg, audience, type, expiry...), or from a party we do not know at all.
 */
export type AssertionCheck<T> =
  { readonly status: 'valid'; readonly claims: T } | { readonly status: 'invalid' } | { readonly status: 'foreign' };

/** The claims of this service's own identity assertion (RFC 7523 JWT bearer assertion). */
export interface IdentityAssertionClaims {
  readonly registrationId: string;
  readonly expiresAt: Date;
}

/** Signs and verifies the EdDSA identity assertions with the service's persistent, rotatable keys. */
export interface IdentityAssertions {
  readonly issuer: string;
  sign(registrationId: string, expiresAt: Date, now: Date): Promise<string>;
  /** `foreign` when the JWT does not name this service as its issuer (or is no JWT at all). */
  verify(assertion: string, now: Date): Promise<AssertionCheck<IdentityAssertionClaims>>;
}
export const IDENTITY_ASSERTIONS = token<IdentityAssertions>('IdentityAssertions');

/** A verified ID-JAG (draft-ietf-oauth-identity-assertion-authz-grant) from a trusted issuer. */
export interface IdJagClaims {
  readonly issuer: string;
  readonly subject: string;
  readonly clientId: string;
  readonly jti: string;
  readonly expiresAt: Date;
  readonly authTime: Date | null;
  readonly email: string | null;
  readonly scopes: string[] | null;
}

/** A verified security event token (RFC 8417) from a trusted issuer. */
export interface SecurityEvent {
  readonly issuer: string;
  readonly jti: string;
  readonly events: Record<string, Record<string, unknown>>;
  /** Top-level subject identifier (RFC 9493 `sub_id`), when present. */
  readonly subjectId: Record<string, unknown> | null;
}

/** Assertions from the identity providers the operator trusts (AGENT_TRUSTED_ISSUERS). */
export interface TrustedIssuers {
  readonly enabled: boolean;
  /** `foreign` when the issuer is not a trusted one. */
  verifyIdJag(assertion: string, now: Date): Promise<AssertionCheck<IdJagClaims>>;
  verifySecurityEvent(token: string, now: Date): Promise<AssertionCheck<SecurityEvent>>;
}
export const TRUSTED_ISSUERS = token<TrustedIssuers>('TrustedIssuers');

/** Short codes a person can type (user_code), and the service's public addresses for agents. */
export interface UserCodes {
  generate(): string;
  /** Canonical form for lookups: upper case, separators dropped; null when it cannot be a code. */
  normalize(code: string): string | null;
}
export const USER_CODES = token<UserCodes>('UserCodes');

export interface AgentEndpoints {
  /** The canonical base URL, which is also the OAuth issuer identifier. */
  readonly issuer: string;
  readonly tokenEndpoint: string;
  /** The consent page a person opens to claim or approve an agent. */
  readonly claimPage: string;
}
export const AGENT_ENDPOINTS = token<AgentEndpoints>('AgentEndpoints');

/** Single use of a trusted issuer's `jti` until the assertion expires. */
export interface ReplayGuard {
  /** False when the identifier was already used. */
  firstUse(issuer: string, jti: string, expiresAt: Date): Promise<boolean>;
}
export const REPLAY_GUARD = token<ReplayGuard>('ReplayGuard');

/** The signing keys: the current one, rotation, and the public set for the JWKS. */
export interface SigningKeys {
  rotate(now: Date): Promise<{ kid: string; previousKid: string | null }>;
  publicJwks(now: Date): Promise<{ keys: Array<Record<string, unknown>> }>;
}
export const SIGNING_KEYS = token<SigningKeys>('SigningKeys');

/** Callers resolved from credentials are cached briefly; revocations drop the cache. */
export interface CredentialCacheInvalidator {
  invalidate(): void;
}
export const CREDENTIAL_CACHE_INVALIDATOR = token<CredentialCacheInvalidator>('CredentialCacheInvalidator');
