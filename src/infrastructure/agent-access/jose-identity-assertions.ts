import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import type { AssertionCheck, IdentityAssertionClaims, IdentityAssertions } from '../../application/agent-access/ports';
import { SIGNING_ALG, type PostgresSigningKeys } from './postgres-signing-keys';

/** Explicit typing (RFC 8725 section 3.11): no other JWT of ours or anyone's can pass as one. */
export const IDENTITY_ASSERTION_TYP = 'agent-identity+jwt';

/**
 * The service's identity assertions: EdDSA JWTs with iss = aud = the canonical base URL,
 * sub = registration id, a jti, iat and exp. Verification pins the algorithm, the key (by kid,
 * among the active and recently retired keys), the type, issuer, audience and expiry.
 */
export class JoseIdentityAssertions implements IdentityAssertions {
  constructor(
    readonly issuer: string,
    private readonly tokenEndpoint: string,
    private readonly keys: PostgresSigningKeys,
  ) {}

  async sign(registrationId: string, expiresAt: Date, now: Date): Promise<string> {
    const { kid, key } = await this.keys.signingKey(now);
    return new SignJWT({})
      .setProtectedHeader({ alg: SIGNING_ALG, kid, typ: IDENTITY_ASSERTION_TYP })
      .setIssuer(this.issuer)
      .setSubject(registrationId)
      .setAudience(this.issuer)
      .setJti(randomUUID())
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(key);
  }

  async verify(assertion: string, now: Date): Promise<AssertionCheck<IdentityAssertionClaims>> {
    let issuer: unknown;
    try {
      issuer = decodeJwt(assertion).iss;
    } catch {
      return { status: 'invalid' };
    }
    if (issuer !== this.issuer) return { status: 'foreign' };
    try {
      const { payload } = await jwtVerify(
        assertion,
        async (header) => {
          const key = await this.keys.verificationKey(header.kid, now);
          if (!key) throw new Error('unknown signing key');
          return key;
        },
        {
          issuer: this.issuer,
          audience: [this.issuer, this.tokenEndpoint],
          algorithms: [SIGNING_ALG],
          typ: IDENTITY_ASSERTION_TYP,
          currentDate: now,
          clockTolerance: 5,
          requiredClaims: ['sub', 'exp', 'iat', 'jti'],
        },
      );
      return { status: 'valid', claims: { registrationId: payload.sub!, expiresAt: new Date(payload.exp! * 1000) } };
    } catch {
      return { status: 'invalid' };
    }
  }
}
