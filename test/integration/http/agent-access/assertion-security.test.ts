import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { SignJWT, base64url, generateKeyPair, type CryptoKey } from 'jose';
import { expectError } from '../../../support/http-client';
import { anAnonymousAgent, exchange } from '../../../support/agent-fixtures';
import { TEST_BASE_URL } from '../../../support/agent-test-issuer';
import { testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { SIGNING_KEYS } from '../../../../src/application/agent-access/ports';
import type { PostgresSigningKeys } from '../../../../src/infrastructure/agent-access/postgres-signing-keys';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The server's own signing key, to forge assertions that differ from valid ones in exactly one respect. */
async function serverKey(): Promise<{ kid: string; key: CryptoKey }> {
  const { container } = await testServer();
  return container.get<PostgresSigningKeys>(SIGNING_KEYS).signingKey(testClock.now());
}

async function forge(
  registrationId: string,
  change: { claims?: Record<string, unknown>; header?: Record<string, unknown>; key?: CryptoKey } = {},
) {
  const { kid, key } = await serverKey();
  const now = seconds(testClock.now());
  return new SignJWT({
    iss: TEST_BASE_URL,
    sub: registrationId,
    aud: TEST_BASE_URL,
    iat: now,
    exp: now + 600,
    jti: randomUUID(),
    ...change.claims,
  })
    .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'agent-identity+jwt', ...change.header } as never)
    .sign(change.key ?? key);
}

const expectInvalidGrant = async (assertion: string) => expectError(await exchange(assertion), 400, 'invalid_grant');

describe('agent access: identity assertion verification', () => {
  it('accepts an assertion forged exactly like a real one (the control case)', async () => {
    const agent = await anAnonymousAgent();
    expect((await exchange(await forge(agent.registration_id))).status).to.equal(200);
  });

  it('rejects alg none', async () => {
    const agent = await anAnonymousAgent();
    const now = seconds(testClock.now());
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'agent-identity+jwt' }));
    const payload = base64url.encode(
      JSON.stringify({ iss: TEST_BASE_URL, sub: agent.registration_id, aud: TEST_BASE_URL, iat: now, exp: now + 600, jti: randomUUID() }),
    );
    await expectInvalidGrant(`${header}.${payload}.`);
  });

  it("rejects a signature by another key, whether it claims the server's kid or an unknown one", async () => {
    const agent = await anAnonymousAgent();
    const { privateKey } = await generateKeyPair('EdDSA');
    await expectInvalidGrant(await forge(agent.registration_id, { key: privateKey }));
    await expectInvalidGrant(await forge(agent.registration_id, { key: privateKey, header: { kid: 'attacker' } }));
  });

  it('rejects an HMAC assertion keyed with the public key (algorithm confusion)', async () => {
    const agent = await anAnonymousAgent();
    const { kid } = await serverKey();
    const jwks = await (await testServer()).container.get<PostgresSigningKeys>(SIGNING_KEYS).publicJwks(testClock.now());
    const secret = new TextEncoder().encode(JSON.stringify(jwks.keys.find((k) => k.kid === kid)));
    const now = seconds(testClock.now());
    const hmac = await new SignJWT({
      iss: TEST_BASE_URL,
      sub: agent.registration_id,
      aud: TEST_BASE_URL,
      iat: now,
      exp: now + 600,
      jti: randomUUID(),
    })
      .setProtectedHeader({ alg: 'HS256', kid, typ: 'agent-identity+jwt' })
      .sign(secret);
    await expectInvalidGrant(hmac);
  });

  it('rejects a wrong audience, a wrong type and a missing jti', async () => {
    const agent = await anAnonymousAgent();
    await expectInvalidGrant(await forge(agent.registration_id, { claims: { aud: 'https://other.example' } }));
    await expectInvalidGrant(await forge(agent.registration_id, { header: { typ: 'JWT' } }));
    await expectInvalidGrant(await forge(agent.registration_id, { claims: { jti: undefined } }));
  });

  it('rejects an expired assertion', async () => {
    const agent = await anAnonymousAgent();
    const past = seconds(testClock.now()) - 7200;
    await expectInvalidGrant(await forge(agent.registration_id, { claims: { iat: past, exp: past + 3600 } }));
  });

  it('answers issuer_not_enabled for a wrong issuer (no trusted provider of that name)', async () => {
    const agent = await anAnonymousAgent();
    expectError(await exchange(await forge(agent.registration_id, { claims: { iss: 'https://evil.example' } })), 400, 'issuer_not_enabled');
  });

  it('rejects a valid assertion for a registration that does not exist', async () => {
    await expectInvalidGrant(await forge('reg_does_not_exist'));
  });
});
