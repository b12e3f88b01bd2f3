import type { SsoConnection } from '../../domain/identity/sso';
import { token } from '../shared/token';
import type { TargetPolicy } from '../shared/target-policy';
import type { Transaction } from '../shared/transaction';

export interface SsoConnectionRepository {
  findByOrganization(organizationId: number): Promise<SsoConnection | null>;
  /** The connection whose allowed domains hold this e-mail domain (a domain belongs to one organization). */
  findByDomain(domain: string): Promise<SsoConnection | null>;
  /** Throws `ssoDomainTaken` when another organization holds one of its domains. `tx`: the caller's transaction, which its statements join. */
  save(connection: SsoConnection, tx: Transaction): Promise<void>;
  remove(organizationId: number, tx: Transaction): Promise<boolean>;
}
export const SSO_CONNECTION_REPOSITORY = token<SsoConnectionRepository>('SsoConnectionRepository');

/** A sign-in sent to the provider: what the callback needs, kept server-side under its state's digest. */
export interface SsoPendingLogin {
  organizationId: number;
  nonce: string;
  codeVerifier: string;
  expiresAt: Date;
}
export interface SsoLoginStore {
  add(stateHash: string, login: SsoPendingLogin, tx: Transaction): Promise<void>;
  /** Removes and returns it: a state is good once. Null when unknown, used or expired. */
  take(stateHash: string, now: Date, tx: Transaction): Promise<SsoPendingLogin | null>;
  /** Which user a provider's subject is; the link is made at the first sign-in. */
  link(organizationId: number, issuer: string, subject: string, userId: string, tx: Transaction): Promise<void>;
  usersOf(issuer: string, subject: string): Promise<string[]>;
}
export const SSO_LOGIN_STORE = token<SsoLoginStore>('SsoLoginStore');

/** What the provider vouched for in a validated ID token. */
export interface SsoIdentity {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  groups: string[];
}

export interface SsoClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** The OpenID Connect relying party: discovery, the authorization request, code exchange, logout tokens. */
export interface OidcRelyingParty {
  /** Throws `ssoProviderUnavailable` when discovery fails. */
  authorizationUrl(
    settings: SsoClientSettings,
    login: { state: string; nonce: string; codeVerifier: string; groupClaim: string | null },
  ): Promise<URL>;
  /** Validates state, PKCE and the ID token (signature, issuer, audience, nonce, expiry); throws `ssoTokenInvalid` or `ssoProviderUnavailable`. */
  exchange(
    settings: SsoClientSettings,
    callbackUrl: URL,
    expected: { state: string; nonce: string; codeVerifier: string; groupClaim: string | null },
  ): Promise<SsoIdentity>;
  /** Validates a back-channel logout token; answers its subject. Throws `ssoTokenInvalid` or `ssoProviderUnavailable`. */
  logoutSubject(settings: SsoClientSettings, logoutToken: string): Promise<string>;
}
export const OIDC_RELYING_PARTY = token<OidcRelyingParty>('OidcRelyingParty');

/** Seals the client secret at rest (the service's credential cipher; the context binds the record). */
export interface SsoSecretCipher {
  encrypt(plaintext: string, context: string): string;
  decrypt(ciphertext: string, context: string): string;
}
export const SSO_SECRET_CIPHER = token<SsoSecretCipher>('SsoSecretCipher');

/** The policy every outbound call to a provider goes through (discovery, token endpoint, JWKS). */
export const SSO_TARGET_POLICY = token<TargetPolicy>('SsoTargetPolicy');
