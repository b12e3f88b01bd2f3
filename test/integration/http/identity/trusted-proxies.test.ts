import { expect } from 'chai';
import http from 'node:http';
import { randomInt } from 'node:crypto';
import pino from 'pino';
import { startApplication, type RunningApplication } from '../../../../src/main/application';
import { expectError } from '../../../support/http-client';
import { awayFromMinuteBoundary } from '../../../support/agent-fixtures';
import { CANONICAL_HOST, aClientIp } from '../../../support/agent-http';
import { testClock } from '../../../support/test-clock';
import { testConfig, testDatabase, testDnsServer, testServer } from '../../../support/test-server';

/** POST /agent/identity (30 per minute per caller, keyed on the client address) from `from`, with X-Forwarded-For `forwardedFor`. */
function register(url: string, from: string, forwardedFor: string) {
  const target = new URL(url);
  const body = JSON.stringify({ type: 'anonymous' });
  const headers = {
    host: CANONICAL_HOST,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-forwarded-for': forwardedFor,
  };
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const request = http.request(
      { host: target.hostname, port: target.port, method: 'POST', path: '/agent/identity', headers, localAddress: from },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A forwarded client address (one of 16 million: two draws in one run practically never meet). */
/** GET of the agent discovery document (served on the canonical host only) from `from`, with `headers`. */
function discovery(url: string, from: string, headers: Record<string, string>) {
  const target = new URL(url);
  return new Promise<number>((resolve, reject) => {
    const request = http.request(
      { host: target.hostname, port: target.port, path: '/.well-known/oauth-authorization-server', headers, localAddress: from },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

const aForwardedClient = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** Thirty registrations from `from`, each through `forwardedFor()`, all 201; then what the thirty-first answers. */
async function thirtyFirst(url: string, from: string, forwardedFor: () => string) {
  awayFromMinuteBoundary();
  const statuses: number[] = [];
  for (let i = 0; i < 30; i++) statuses.push((await register(url, from, forwardedFor())).status);
  expect(
    statuses.filter((status) => status !== 201),
    'refused among the first thirty',
  ).to.deep.equal([]);
  return register(url, from, forwardedFor());
}

describe('trusted proxies (TRUST_PROXY) and the client address per-caller limits count', () => {
  it('without TRUST_PROXY, a loopback peer rotating X-Forwarded-For is still one caller: the thirty-first registration is 429', async () => {
    const { url } = await testServer();
    const limited = await thirtyFirst(url, aClientIp(), aForwardedClient);
    expectError(limited, 429, 'rateLimited');
  });

  it('without TRUST_PROXY, X-Forwarded-Host does not decide which host a request was for (agent endpoints: canonical host only)', async () => {
    const { url } = await testServer();
    expect(await discovery(url, aClientIp(), { host: CANONICAL_HOST, 'x-forwarded-host': 'unknown-host.example.org' })).to.equal(200);
    expect(await discovery(url, aClientIp(), { host: 'unknown-host.example.org', 'x-forwarded-host': CANONICAL_HOST })).to.equal(404);
  });

  describe('with TRUST_PROXY=127.0.0.1/32', () => {
    let app: RunningApplication;

    before(async () => {
      const { url } = await testDatabase();
      const dns = await testDnsServer();
      app = await startApplication(
        { ...testConfig({ DNS_SERVERS: dns.server, TRUST_PROXY: '127.0.0.1/32' }), databaseUrl: url },
        { clock: testClock, jobs: false, checkWorker: false, notificationWorker: false, logger: pino({ level: 'silent' }) },
      );
    });
    after(() => app?.stop());

    it("the named proxy's X-Forwarded-For decides: one forwarded client is limited, another is not", async () => {
      const client = aForwardedClient();
      const limited = await thirtyFirst(app.url, '127.0.0.1', () => client);
      expectError(limited, 429, 'rateLimited');
      let other = aForwardedClient();
      while (other === client) other = aForwardedClient();
      expect((await register(app.url, '127.0.0.1', other)).status).to.equal(201);
    });

    it('the host is the X-Forwarded-Host value the named proxy wrote (the last), as custom-domain routing reads it', async () => {
      const host = 'proxy.internal.example';
      expect(await discovery(app.url, '127.0.0.1', { host, 'x-forwarded-host': `unknown-host.example.org, ${CANONICAL_HOST}` })).to.equal(
        200,
      );
      expect(await discovery(app.url, '127.0.0.1', { host, 'x-forwarded-host': `${CANONICAL_HOST}, unknown-host.example.org` })).to.equal(
        404,
      );
      expect(
        await discovery(app.url, '127.0.0.2', { host: CANONICAL_HOST, 'x-forwarded-host': 'unknown-host.example.org' }),
        'a peer outside the list',
      ).to.equal(200);
    });

    it('a peer outside the list is not believed: rotating X-Forwarded-For from 127.0.0.2 is still one caller', async () => {
      const peer = `127.0.0.${randomInt(2, 255)}`;
      const limited = await thirtyFirst(app.url, peer, aForwardedClient);
      expectError(limited, 429, 'rateLimited');
    });
  });
});
