import * as oidc from 'openid-client';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { AppError } from '../../domain/shared/app-error';
import type { OidcRelyingParty, SsoClientSettings, SsoIdentity } from '../../application/identity/sso-ports';
import type { TargetPolicy } from '../../application/shared/target-policy';
import type { SharedTlsContext } from '../protocols/shared/tls-context';
import { policyFetch } from './policy-fetch';

const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const CLOCK_TOLERANCE_S = 60;

/** How long a provider's discovery document is used before it is read again. */
export const DISCOVERY_TTL_MS = 5 * 60_000;

/**
 * Providers' discovery documents (server metadata only, never a client's settings), read through
 * a target policy and kept a short while, per policy: a document read under one policy is never
 * used under another. Only documents read successfully are kept. Shared by the relying parties the
 * container makes (one per use).
 */
export class DiscoveryCache {
  private readonly byPolicy = new WeakMap<TargetPolicy, Map<string, { metadata: oidc.ServerMetadata; until: number }>>();

  constructor(
    private readonly ttlMs = DISCOVERY_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get(policy: TargetPolicy, issuer: string): oidc.ServerMetadata | null {
    const entry = this.byPolicy.get(policy)?.get(issuer);
    return entry && entry.until > this.now() ? entry.metadata : null;
  }

  set(policy: TargetPolicy, issuer: string, metadata: oidc.ServerMetadata): void {
    let entries = this.byPolicy.get(policy);
    if (!entries) this.byPolicy.set(policy, (entries = new Map()));
    for (const [key, entry] of entries) if (entry.until <= this.now()) entries.delete(key);
    entries.set(issuer, { metadata, until: this.now() + this.ttlMs });
  }
}

const unavailable = (error: unknown) =>
  new AppError('ssoProviderUnavailable', { reason: ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message });

/**
 * The relying party on openid-client (authorization code with PKCE, discovery, ID token validation:
 * issuer, audience, nonce, expiry, signature) and jose (back-channel logout tokens). Every request
 * (discovery, token endpoint, JWKS) goes through the target policy. http issuers are accepted only as
 * the domain allows them (loopback), which the production policy refuses anyway.
 */
export class OpenIdRelyingParty implements OidcRelyingParty {
  private readonly fetch: ReturnType<typeof policyFetch>;

  constructor(
    private readonly policy: TargetPolicy,
    tls: SharedTlsContext,
    userAgent: string,
    private readonly discoveries: DiscoveryCache = new DiscoveryCache(),
  ) {
    this.fetch = policyFetch(policy, tls, userAgent);
  }

  async authorizationUrl(
    settings: SsoClientSettings,
    login: { state: string; nonce: string; codeVerifier: string; groupClaim: string | null },
  ): Promise<URL> {
    const config = await this.discover(settings);
    const scopes = ['openid', 'email', 'profile', ...(login.groupClaim ? [login.groupClaim] : [])];
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: settings.redirectUri,
      scope: scopes.join(' '),
      state: login.state,
      nonce: login.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(login.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  async exchange(
    settings: SsoClientSettings,
    callbackUrl: URL,
    expected: { state: string; nonce: string; codeVerifier: string; groupClaim: string | null },
  ): Promise<SsoIdentity> {
    const config = await this.discover(settings);
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      if (
        error instanceof oidc.ClientError ||
        error instanceof oidc.AuthorizationResponseError ||
        error instanceof oidc.ResponseBodyError
      ) {
        // A failed claim check (issuer, audience, authorized party, nonce...) names the claim: openid-client
        // wraps oauth4webapi's error, whose cause carries it.
        const cause = error.cause as { message?: unknown; cause?: { claim?: unknown } } | undefined;
        const claim = cause?.cause?.claim;
        throw new AppError('ssoTokenInvalid', {
          reason: typeof claim === 'string' && typeof cause?.message === 'string' ? cause.message : error.message,
          ...(typeof claim === 'string' ? { claim } : {}),
        });
      }
      throw unavailable(error);
    }
    if (!claims || typeof claims.email !== 'string') throw new AppError('ssoTokenInvalid', { reason: 'the ID token names no e-mail' });
    const groups = expected.groupClaim ? claims[expected.groupClaim] : undefined;
    return {
      subject: claims.sub,
      email: claims.email.toLowerCase(),
      emailVerified: claims.email_verified === true,
      name: typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 200) : null,
      groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [],
    };
  }

  async logoutSubject(settings: SsoClientSettings, logoutToken: string): Promise<string> {
    const config = await this.discover(settings);
    const metadata = config.serverMetadata();
    if (!metadata.jwks_uri) throw new AppError('ssoProviderUnavailable', { reason: 'the provider publishes no jwks_uri' });
    let jwks: JSONWebKeySet;
    try {
      const response = await this.fetch(metadata.jwks_uri, { headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`JWKS answered ${response.status}`);
      jwks = (await response.json()) as JSONWebKeySet;
    } catch (error) {
      throw unavailable(error);
    }
    try {
      const { payload } = await jwtVerify(logoutToken, createLocalJWKSet(jwks), {
        issuer: metadata.issuer,
        audience: settings.clientId,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['iat', 'jti'],
      });
      const events = payload.events as Record<string, unknown> | undefined;
      if (!events || typeof events[LOGOUT_EVENT] !== 'object') throw new Error('not a logout token');
      if ('nonce' in payload) throw new Error('a logout token carries no nonce');
      if (typeof payload.sub !== 'string') throw new Error('the logout token names no subject');
      return payload.sub;
    } catch (error) {
      throw new AppError('ssoTokenInvalid', { reason: (error as Error).message });
    }
  }

  /**
   * The provider's configuration for this client: its discovery document from the cache (a few
   * minutes old at most), else read now. Every later request (token endpoint, JWKS) still goes
   * through this relying party's fetch, hence the target policy.
   */
  private async discover(settings: SsoClientSettings): Promise<oidc.Configuration> {
    const issuer = new URL(settings.issuer);
    const insecure = issuer.protocol === 'http:';
    const known = this.discoveries.get(this.policy, issuer.href);
    if (known) {
      const config = new oidc.Configuration(known, settings.clientId, settings.clientSecret);
      config[oidc.customFetch] = this.fetch as oidc.CustomFetch;
      if (insecure) oidc.allowInsecureRequests(config);
      return config;
    }
    try {
      const config = await oidc.discovery(issuer, settings.clientId, settings.clientSecret, undefined, {
        [oidc.customFetch]: this.fetch as oidc.CustomFetch,
        execute: insecure ? [oidc.allowInsecureRequests] : [],
      });
      this.discoveries.set(this.policy, issuer.href, config.serverMetadata());
      return config;
    } catch (error) {
      throw unavailable(error);
    }
  }
}
