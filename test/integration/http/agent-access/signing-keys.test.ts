import { expect } from 'chai';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import pino from 'pino';
import { api, expectError } from '../../../support/http-client';
import { agentApi, CANONICAL_HOST } from '../../../support/agent-http';
import { anOrganization } from '../../../support/builders';
import { anAnonymousAgent, exchange, platformAdmin } from '../../../support/agent-fixtures';
import { TEST_BASE_URL, TEST_KEY_ENCRYPTION_KEY } from '../../../support/agent-test-issuer';
import { testConfig, testDatabase, testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { startApplication } from '../../../../src/main/application';
import { KeyEncryption } from '../../../../src/infrastructure/agent-access/key-encryption';
import { JoseTrustedIssuers } from '../../../../src/infrastructure/agent-access/jose-trusted-issuers';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const kids = async () => ((await agentApi('GET', '/.well-known/jwks.json')).body.keys as Array<{ kid: string }>).map((k) => k.kid);

/** POST a form to another running instance, with the canonical Host header. */
function postForm(url: string, route: string, form: Record<string, string>): Promise<{ status: number; body: any }> {
  const target = new URL(url);
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: 'POST',
        path: route,
        headers: { host: CANONICAL_HOST, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('agent access: signing keys', () => {
  it('rotates: new assertions carry the new kid, the previous key stays published and its assertions still verify', async () => {
    const before = await anAnonymousAgent();
    const oldKid = decodeProtectedHeader(before.identity_assertion).kid;
    expectError(
      await api('POST', '/api/platform-admin/agent-signing-keys/rotate', { token: (await anOrganization()).token }),
      403,
      'platformAdminRequired',
    );
    const rotated = await api('POST', '/api/platform-admin/agent-signing-keys/rotate', { token: await platformAdmin() });
    expect(rotated.status).to.equal(200);
    expect(rotated.body.previousKid).to.equal(oldKid);
    expect(await kids()).to.include.members([oldKid, rotated.body.kid]);
    const after = await anAnonymousAgent();
    expect(decodeProtectedHeader(after.identity_assertion).kid).to.equal(rotated.body.kid);
    expect((await exchange(before.identity_assertion)).status).to.equal(200);
    expect((await exchange(after.identity_assertion)).status).to.equal(200);
  });

  it('keeps the keys across a restart: another instance on the same database verifies earlier assertions', async () => {
    const agent = await anAnonymousAgent();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-keys-'));
    const second = await startApplication(
      { ...testConfig({ DATA_DIR: dataDir }), databaseUrl: (await testDatabase()).url },
      {
        clock: testClock,
        jobs: false,
        logger: pino({ level: 'silent' }),
      },
    );
    try {
      const minted = await postForm(second.url, '/oauth2/token', {
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: agent.identity_assertion,
      });
      expect(minted.status, JSON.stringify(minted.body)).to.equal(200);
      expect(minted.body.scope).to.equal('tools.public');
    } finally {
      await second.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('stores private keys encrypted: the database holds no key material, and only the configured key decrypts it', async () => {
    await anAnonymousAgent();
    const { database } = await testServer();
    const rows = await database.sql.query<{ kid: string; private_key_ciphertext: string; public_jwk: object }>(
      sql`SELECT kid, private_key_ciphertext, public_jwk FROM agent_signing_keys WHERE status = 'active'`,
    );
    expect(rows).to.have.length(1);
    const { kid, private_key_ciphertext: ciphertext, public_jwk: publicJwk } = rows[0]!;
    expect(ciphertext).to.match(/^v1\./).and.not.include('"d"');
    expect(publicJwk).to.not.have.property('d');
    const right = new KeyEncryption({ configuredKey: TEST_KEY_ENCRYPTION_KEY, dataDir: '/nonexistent' });
    expect(JSON.parse(await right.decrypt(ciphertext, kid))).to.have.property('d');
    const wrong = new KeyEncryption({ configuredKey: 'aa'.repeat(32), dataDir: '/nonexistent' });
    await wrong.decrypt(ciphertext, kid).then(
      () => expect.fail('decrypted with the wrong key'),
      () => undefined,
    );
    await right.decrypt(ciphertext, 'another-kid').then(
      () => expect.fail('decrypted under another kid'),
      () => undefined,
    );
  });

  it('without a configured key, creates one in DATA_DIR (mode 0600) and reuses it', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'agent-kek-'));
    try {
      const sealed = await new KeyEncryption({ configuredKey: undefined, dataDir }).encrypt('secret', 'kid');
      const stat = await fs.stat(path.join(dataDir, 'agent-signing-kek'));
      expect(stat.mode & 0o777).to.equal(0o600);
      expect(await new KeyEncryption({ configuredKey: undefined, dataDir }).decrypt(sealed, 'kid')).to.equal('secret');
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('agent access: trusted issuers with a remote JWKS', () => {
  it("fetches the issuer's key set from its jwks_uri (loopback) and verifies its ID-JAGs", async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'remote-1', alg: 'ES256' }] };
    const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
      const issuers = new JoseTrustedIssuers([{ issuer: 'https://remote-idp.example', jwksUri }], [TEST_BASE_URL]);
      const now = testClock.now();
      const iat = Math.floor(now.getTime() / 1000);
      const idJag = await new SignJWT({ client_id: 'c', auth_time: iat, email: 'a@b.example', scope: 'api.read' })
        .setProtectedHeader({ alg: 'ES256', kid: 'remote-1', typ: 'oauth-id-jag+jwt' })
        .setIssuer('https://remote-idp.example')
        .setSubject('s')
        .setAudience(TEST_BASE_URL)
        .setJti('j')
        .setIssuedAt(iat)
        .setExpirationTime(iat + 300)
        .sign(privateKey);
      const check = await issuers.verifyIdJag(idJag, now);
      expect(check.status).to.equal('valid');
      if (check.status === 'valid')
        expect(check.claims).to.deep.include({ issuer: 'https://remote-idp.example', subject: 's', clientId: 'c', scopes: ['api.read'] });
      const foreign = await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setIssuer('https://elsewhere.example').sign(privateKey);
      expect((await issuers.verifyIdJag(foreign, now)).status).to.equal('foreign');
    } finally {
      server.close();
    }
  });
});
