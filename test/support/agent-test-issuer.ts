import { randomUUID } from 'node:crypto';
import { SignJWT, importJWK, type CryptoKey, type JWK } from 'jose';
import { testClock } from './test-clock';

/**
 * A trusted identity provider of the test server (AGENT_TRUSTED_ISSUERS, inline JWKS): a fixed
 * Ed25519 key pair, generated for the tests only and trusted by nothing else.
 */
export const TEST_ISSUER = 'https://idp.test.example';
export const TEST_ISSUER_KID = 'test-idp-1';
const PRIVATE_JWK: JWK = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: 'DEzpqwiJKxHLKPfrxb6AkCMo1ALQkaIwBdjtN_i4S40',
  d: 'miq_muedXaJkcEzq5MCNCxfdYKlFMpoWSw9MP3St1MA',
};
const PUBLIC_JWK: JWK = { kty: 'OKP', crv: 'Ed25519', x: PRIVATE_JWK.x!, kid: TEST_ISSUER_KID, alg: 'EdDSA', use: 'sig' };

/** The value of AGENT_TRUSTED_ISSUERS in the test configuration. */
export const TEST_TRUSTED_ISSUERS = JSON.stringify([{ issuer: TEST_ISSUER, jwks: { keys: [PUBLIC_JWK] } }]);
/** AGENT_KEY_ENCRYPTION_KEY of the test configuration (32 bytes, hex). */
export const TEST_KEY_ENCRYPTION_KEY = '5f'.repeat(32);
/** The canonical base URL (PUBLIC_BASE_URL) of the test server: the OAuth issuer and audience. */
export const TEST_BASE_URL = 'http://api.test.example';

export const testIssuerKey = (): Promise<CryptoKey> => importJWK(PRIVATE_JWK, 'EdDSA') as Promise<CryptoKey>;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** Signs any claims as a JWT of the test issuer; `header` overrides alg/kid/typ. */
export async function signAsTestIssuer(
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
  key?: CryptoKey,
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid: TEST_ISSUER_KID, ...header } as never)
    .sign(key ?? (await testIssuerKey()));
}

/** An ID-JAG for an account (by email) and a client, valid at the test server's time; `extra` overrides claims. */
export async function anIdJag(options: {
  email: string;
  clientId?: string;
  subject?: string;
  scope?: string;
  extra?: Record<string, unknown>;
}): Promise<string> {
  const now = testClock.now();
  return signAsTestIssuer(
    {
      iss: TEST_ISSUER,
      sub: options.subject ?? `sub-${options.email}`,
      aud: TEST_BASE_URL,
      client_id: options.clientId ?? 'test-client',
      jti: randomUUID(),
      iat: seconds(now),
      exp: seconds(now) + 300,
      auth_time: seconds(now) - 60,
      email: options.email,
      ...(options.scope ? { scope: options.scope } : {}),
      ...options.extra,
    },
    { typ: 'oauth-id-jag+jwt' },
  );
}

/** A security event token (RFC 8417) of the test issuer carrying one event for a subject. */
export async function aSecurityEvent(
  event: string,
  subject: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return signAsTestIssuer(
    {
      iss: TEST_ISSUER,
      aud: TEST_BASE_URL,
      iat: seconds(testClock.now()),
      jti: randomUUID(),
      events: { [event]: { subject } },
      ...extra,
    },
    { typ: 'secevent+jwt' },
  );
}
