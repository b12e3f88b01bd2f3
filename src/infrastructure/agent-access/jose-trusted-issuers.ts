import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
  type JSONWebKeySet,
} from 'jose';
import { parseScopes } from '../../domain/agent-access/scopes';
import type { AssertionCheck, IdJagClaims, SecurityEvent, TrustedIssuers } from '../../application/agent-access/ports';

/** One identity provider the operator trusts: its issuer identifier and its keys (by URL or inline). */
export interface TrustedIssuerConfig {
  readonly issuer: string;
  readonly jwksUri?: string | undefined;
  readonly jwks?: JSONWebKeySet | undefined;
}

export const ID_JAG_TYP = 'oauth-id-jag+jwt';
export const SECURITY_EVENT_TYP = 'secevent+jwt';
/** Asymmetric algorithms only: `none` and HMAC (where a public key could be abused as the secret) never verify. */
const ALGORITHMS = ['EdDSA', 'Ed25519', 'ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * ID-JAGs (draft-ietf-oauth-identity-assertion-authz-grant) and security event tokens (RFC 8417)
 * from the configured issuers, verified with jose against each issuer's own key set; remote key
 * sets are fetched on demand and cached.
 */
export class JoseTrustedIssuers implements TrustedIssuers {
  private readonly keySets = new Map<string, JWTVerifyGetKey>();

  constructor(
    issuers: readonly TrustedIssuerConfig[],
    private readonly audiences: string[],
  ) {
    for (const { issuer, jwksUri, jwks } of issuers) {
      this.keySets.set(
        issuer,
        jwks
          ? createLocalJWKSet(jwks)
          : createRemoteJWKSet(new URL(jwksUri!), { timeoutDuration: 5_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 }),
      );
    }
  }

  get enabled(): boolean {
    return this.keySets.size > 0;
  }

  async verifyIdJag(assertion: string, now: Date): Promise<AssertionCheck<IdJagClaims>> {
    return this.check(assertion, now, ID_JAG_TYP, ['sub', 'exp', 'iat', 'jti', 'client_id'], (payload) => {
      if (typeof payload.client_id !== 'string' || payload.client_id === '') return null;
      const scopes = typeof payload.scope === 'string' ? parseScopes(payload.scope) : null;
      return {
        issuer: payload.iss!,
        subject: payload.sub!,
        clientId: payload.client_id,
        jti: payload.jti!,
        expiresAt: new Date(payload.exp! * 1000),
        authTime: typeof payload.auth_time === 'number' ? new Date(payload.auth_time * 1000) : null,
        email: typeof payload.email === 'string' ? payload.email : null,
        scopes,
      };
    });
  }

  async verifySecurityEvent(token: string, now: Date): Promise<AssertionCheck<SecurityEvent>> {
    return this.check(token, now, SECURITY_EVENT_TYP, ['iat', 'jti'], (payload) => {
      const events = payload.events;
      if (!isObject(events) || Object.keys(events).length === 0 || !Object.values(events).every(isObject)) return null;
      return {
        issuer: payload.iss!,
        jti: payload.jti!,
        events: events as Record<string, Record<string, unknown>>,
        subjectId: isObject(payload.sub_id) ? payload.sub_id : null,
      };
    });
  }

  private async check<T>(
    jwt: string,
    now: Date,
    typ: string,
    requiredClaims: string[],
    read: (payload: JWTPayload) => T | null,
  ): Promise<AssertionCheck<T>> {
    let issuer: unknown;
    try {
      issuer = decodeJwt(jwt).iss;
    } catch {
      return { status: 'invalid' };
    }
    const keys = typeof issuer === 'string' ? this.keySets.get(issuer) : undefined;
    if (!keys) return { status: 'foreign' };
    try {
      const { payload } = await jwtVerify(jwt, keys, {
        issuer: issuer as string,
        audience: this.audiences,
        algorithms: ALGORITHMS,
        typ,
        currentDate: now,
        clockTolerance: 30,
        requiredClaims,
      });
      const claims = read(payload);
      return claims ? { status: 'valid', claims } : { status: 'invalid' };
    } catch {
      return { status: 'invalid' };
    }
  }
}
