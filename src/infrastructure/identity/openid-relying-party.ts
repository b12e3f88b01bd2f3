import type * as Oidc from 'openid-client';
import { errors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey, type JWTVerifyOptions } from 'jose';
import { AppError } from '../../domain/shared/app-error';
import type { OidcRelyingParty, SsoClientSettings, SsoIdentity } from '../../application/identity/sso-ports';
import type { TargetPolicy } from '../../application/shared/target-policy';
import type { SharedTlsContext } from '../protocols/shared/tls-context';
import { policyFetch } from './policy-fetch';
import { JwksCache } from './jwks-cache';
import { lazyModule } from '../protocols/shared/lazy-module';
/** openid-client, loaded with the first sign-in (a service without single sign-on never holds it). */
const openidClient = lazyModule(() => import('openid-client'));

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
  private readonly byPolicy = new WeakMap<TargetPolicy, Map<string, { metadata: Oidc.ServerMetadata; until: number }>>();

  constructor(
    private readonly ttlMs = DISCOVERY_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get(policy: TargetPolicy, issuer: string): Oidc.ServerMetadata | null {
    const entry = this.byPolicy.get(policy)?.get(issuer);
    return entry && entry.until > this.now() ? entry.metadata : null;
  }

  set(policy: TargetPolicy, issuer: string, metadata: Oidc.ServerMetadata): void {
    let entries = this.byPolicy.get(policy);
    if (!entries) this.byPolicy.set(policy, (entries = new Map()));
    for (const [key, entry] of entries) if (entry.until <= this.now()) entries.delete(key);
    entries.set(issuer, { metadata, until: this.now() + this.ttlMs });
  }
}

const unavailable = (error: unknown) =>
  new AppError('ssoProviderUnavailable', { reason: ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message });

/**
 * The signing algorithms ever accepted for the provider's tokens: asymmetric ones. A token signed
 * with a shared secret (HS*) can be made by anyone holding the key it names, here a published public
 * key (the key-confusion attack), and `none` is no signature at all.
 */
const ASYMMETRIC_ALGORITHMS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/**
 * The algorithms a provider's tokens may be signed with: the asymmetric ones its discovery document
 * advertises (`id_token_signing_alg_values_supported`), or RS256, the protocol's default, when it
 * advertises none. A provider advertising only others gets none: each of its tokens is refused.
 */
export function acceptedAlgorithms(metadata: Pick<Oidc.ServerMetadata, 'id_token_signing_alg_values_supported'>): string[] {
  const advertised = metadata.id_token_signing_alg_values_supported;
  if (!Array.isArray(advertised) || advertised.length === 0) return ['RS256'];
  return ASYMMETRIC_ALGORITHMS.filter((alg) => advertised.includes(alg));
}

/** A token that did not verify: 401 `ssoTokenInvalid`, its reason (and the claim whose check failed). */
function refusal(error: unknown, token: 'ID token' | 'logout token'): AppError {
  if (error instanceof AppError) return error; // ssoProviderUnavailable: no keys published, or they could not be read
  if (error instanceof errors.JWKSInvalid) return new AppError('ssoProviderUnavailable', { reason: "the provider's key set is malformed" });
  const invalid = (reason: string, claim?: string) => new AppError('ssoTokenInvalid', { reason, ...(claim ? { claim } : {}) });
  if (error instanceof errors.JOSEAlgNotAllowed) return invalid(`the ${token}'s signing algorithm is not allowed`);
  if (error instanceof errors.JWKSNoMatchingKey) return invalid(`the ${token} is signed with a key the provider does not publish`);
  if (error instanceof errors.JWSSignatureVerificationFailed) return invalid(`the ${token}'s signature did not verify`);
  if (error instanceof errors.JWTClaimValidationFailed) return invalid(error.message, error.claim);
  return invalid((error as Error).message);
}

/**
 * jwtVerify over a key set. When the token names no key and several of the set fit, jose leaves the
 * choice to its caller: each is tried, and the token verifies if one of them signed it.
 */
async function verifyJwt(token: string, keys: JWTVerifyGetKey, options: JWTVerifyOptions): Promise<JWTPayload> {
  try {
    return (await jwtVerify(token, keys, options)).payload;
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    for await (const key of error) {
      try {
        return (await jwtVerify(token, key, options)).payload;
      } catch (failure) {
        if (!(failure instanceof errors.JWSSignatureVerificationFailed)) throw failure;
      }
    }
    throw new errors.JWSSignatureVerificationFailed();
  }
}

/** What the verified ID token vouches for. */
function identityOf(claims: JWTPayload, groupClaim: string | null): SsoIdentity {
  if (typeof claims.sub !== 'string') throw new AppError('ssoTokenInvalid', { reason: 'the ID token names no subject', claim: 'sub' });
  if (typeof claims.email !== 'string') throw new AppError('ssoTokenInvalid', { reason: 'the ID token names no e-mail' });
  const groups = groupClaim ? claims[groupClaim] : undefined;
  return {
    subject: claims.sub,
    email: claims.email.toLowerCase(),
    emailVerified: claims.email_verified === true,
    name: typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 200) : null,
    groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [],
  };
}

/**
 * The relying party on openid-client (authorization code with PKCE, discovery, the ID token's claims:
 * issuer, audience, authorized party, nonce, expiry) and jose (every token's signature, and back-channel
 * logout tokens). openid-client does not check an ID token's signature on the code flow; this service
 * does, against the provider's published keys (cached, see `JwksCache`), with asymmetric algorithms
 * only. Every request (discovery, token endpoint, keys) goes through the target policy. http issuers
 * are accepted only as the domain allows them (loopback), which the production policy refuses anyway.
 */
export class OpenIdRelyingParty implements OidcRelyingParty {
  private readonly fetch: ReturnType<typeof policyFetch>;

  constructor(
    private readonly policy: TargetPolicy,
    tls: SharedTlsContext,
    userAgent: string,
    private readonly discoveries: DiscoveryCache = new DiscoveryCache(),
    private readonly keySets: JwksCache = new JwksCache(),
  ) {
    this.fetch = policyFetch(policy, tls, userAgent);
  }

  async authorizationUrl(
    settings: SsoClientSettings,
    login: { state: string; nonce: string; codeVerifier: string; groupClaim: string | null },
  ): Promise<URL> {
    const [config, oidc] = [await this.discover(settings), await openidClient()];
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

  /**
   * The code exchanged for an ID token, its claims checked by openid-client, then its signature by
   * this service: the identity is read from the verified token alone.
   */
  async exchange(
    settings: SsoClientSettings,
    callbackUrl: URL,
    expected: { state: string; nonce: string; codeVerifier: string; groupClaim: string | null },
  ): Promise<SsoIdentity> {
    const config = await this.discover(settings);
    const idToken = await this.idTokenFor(config, callbackUrl, expected);
    let claims: JWTPayload;
    try {
      claims = await this.verified(config.serverMetadata(), settings, idToken);
    } catch (error) {
      throw refusal(error, 'ID token');
    }
    return identityOf(claims, expected.groupClaim);
  }

  async logoutSubject(settings: SsoClientSettings, logoutToken: string): Promise<string> {
    const config = await this.discover(settings);
    try {
      const payload = await this.verified(config.serverMetadata(), settings, logoutToken, { requiredClaims: ['iat', 'jti'] });
      const events = payload.events as Record<string, unknown> | undefined;
      if (!events || typeof events[LOGOUT_EVENT] !== 'object') throw new Error('not a logout token');
      if ('nonce' in payload) throw new Error('a logout token carries no nonce');
      if (typeof payload.sub !== 'string') throw new Error('the logout token names no subject');
      return payload.sub;
    } catch (error) {
      throw refusal(error, 'logout token');
    }
  }

  /**
   * The token endpoint's answer to the code, checked by openid-client (state, PKCE, and the ID token's
   * claims: issuer, audience, authorized party, nonce, expiry, but not its signature): the raw ID token.
   */
  private async idTokenFor(
    config: Oidc.Configuration,
    callbackUrl: URL,
    expected: { state: string; nonce: string; codeVerifier: string },
  ): Promise<string> {
    const oidc = await openidClient();
    let tokens: Oidc.TokenEndpointResponse;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
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
    if (typeof tokens.id_token !== 'string') throw new AppError('ssoTokenInvalid', { reason: 'the provider answered no ID token' });
    return tokens.id_token;
  }

  /**
   * A token from the provider verified: its signature against the provider's published keys, with an
   * accepted algorithm, and its issuer and audience. Throws jose's errors, or `ssoProviderUnavailable`
   * when the keys cannot be read.
   */
  private async verified(
    metadata: Oidc.ServerMetadata,
    settings: SsoClientSettings,
    token: string,
    options: Pick<JWTVerifyOptions, 'requiredClaims'> = {},
  ): Promise<JWTPayload> {
    const jwksUri = metadata.jwks_uri;
    if (!jwksUri) throw new AppError('ssoProviderUnavailable', { reason: 'the provider publishes no jwks_uri' });
    return verifyJwt(
      token,
      this.keySets.keys(this.policy, jwksUri, () => this.readKeys(jwksUri)),
      {
        ...options,
        algorithms: acceptedAlgorithms(metadata),
        issuer: metadata.issuer,
        audience: settings.clientId,
        clockTolerance: CLOCK_TOLERANCE_S,
      },
    );
  }

  /** The provider's published keys, read through the target policy. */
  private async readKeys(jwksUri: string): Promise<JSONWebKeySet> {
    try {
      const response = await this.fetch(jwksUri, { headers: { accept: 'application/jwk-set+json, application/json' } });
      if (!response.ok) throw new Error(`the provider's keys (${jwksUri}) answered ${response.status}`);
      return (await response.json()) as JSONWebKeySet;
    } catch (error) {
      throw unavailable(error);
    }
  }

  /**
   * The provider's configuration for this client: its discovery document from the cache (a few
   * minutes old at most), else read now. Every later request (token endpoint, JWKS) still goes
   * through this relying party's fetch, hence the target policy.
   */
  private async discover(settings: SsoClientSettings): Promise<Oidc.Configuration> {
    const oidc = await openidClient();
    const issuer = new URL(settings.issuer);
    const insecure = issuer.protocol === 'http:';
    const known = this.discoveries.get(this.policy, issuer.href);
    if (known) {
      const config = new oidc.Configuration(known, settings.clientId, settings.clientSecret);
      config[oidc.customFetch] = this.fetch as Oidc.CustomFetch;
      if (insecure) oidc.allowInsecureRequests(config);
      return config;
    }
    try {
      const config = await oidc.discovery(issuer, settings.clientId, settings.clientSecret, undefined, {
        [oidc.customFetch]: this.fetch as Oidc.CustomFetch,
        execute: insecure ? [oidc.allowInsecureRequests] : [],
      });
      this.discoveries.set(this.policy, issuer.href, config.serverMetadata());
      return config;
    } catch (error) {
      throw unavailable(error);
    }
  }
}
