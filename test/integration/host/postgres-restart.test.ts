import { expect } from 'chai';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { startApplication, type RunningApplication } from '../../../src/main/application';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../../src/infrastructure/persistence/embedded-postgres';
import { apiAt, expectError, type ApiResponse } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';
import { testConfig, testDnsServer } from '../../support/test-server';
import { waitFor } from '../../support/wait-for';

const LOCATION = 'eu-west';
const WRITES = 100;
const DATABASE = 'restart_under_writes';

/** A loopback HTTP target the service's check worker checks; counts the checks that reach it. */
class CountingTarget {
  hits = 0;
  private readonly server = http.createServer((_req, res) => {
    this.hits++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/health`;
  }

  start(): Promise<void> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The service as deployed (job system, check worker and notification worker in the process) on an
 * embedded PostgreSQL of its own, which the test restarts (fast shutdown, then a start on the same
 * port and data directory) while 100 writes are in flight. Each write is either committed (2xx, and
 * there afterwards) or refused as retryable (503 databaseUnavailable with Retry-After, and absent):
 * nothing half-written, no 500. Then readiness and health recover and checks run again, all
 * without restarting the service.
 */
describe('PostgreSQL restarted under 100 in-flight writes', function () {
  this.timeout(120_000);
  const target = new CountingTarget();
  let dataDir: string;
  let postgres: EmbeddedDatabase;
  let app: RunningApplication;
  let token: string;
  let website: { id: number; publicId: string };

  const call = (method: string, route: string, body?: unknown): Promise<ApiResponse> => apiAt(app.url, method, route, { token, body });

  before(async () => {
    await target.start();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-restart-'));
    postgres = await startEmbeddedPostgres(dataDir, { database: DATABASE });
    const dns = await testDnsServer();
    const config = testConfig({ DNS_SERVERS: dns.server, CHECK_LOCATIONS: LOCATION, CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8' });
    app = await startApplication(
      { ...config, databaseUrl: postgres.url },
      { logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) },
    );

    const signUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Ada Lovelace', email: uniqueEmail('restart'), password: 'correct horse battery', organizationName: 'Restart Ltd' },
    });
    expect(signUp.status, JSON.stringify(signUp.body)).to.equal(200);
    token = signUp.body.token;
    const pkg = await call('POST', '/api/package-configs', {
      key: 'restart',
      displayName: 'Restart',
      minCheckIntervalMinutes: 1,
      quotaTiers: [{ monitorLimit: 10, priceMonthly: 0 }],
    });
    const customer = await call('POST', '/api/customers', { name: 'Customer', email: 'customer@test.example', packageId: pkg.body.id });
    const created = await call('POST', '/api/websites', {
      customerId: customer.body.customer.id,
      url: target.url,
      locations: [LOCATION],
      timeoutSeconds: 5,
      checkInterval: 1,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    website = created.body;
  });

  after(async () => {
    await app?.stop();
    await postgres?.stop();
    await target.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  /** Asks for a check now and waits until it reached the target and its result is recorded. */
  async function aCheckRuns(what: string): Promise<void> {
    const hitsBefore = target.hits;
    const recordedBefore = await recordedChecks();
    await waitFor(async () => (await call('POST', `/api/websites/${website.publicId}/trigger-check`)).status === 202, {
      timeoutMs: 20_000,
      everyMs: 200,
      what: `trigger-check accepted (${what})`,
    });
    await waitFor(async () => target.hits > hitsBefore && (await recordedChecks()) > recordedBefore, {
      timeoutMs: 30_000,
      everyMs: 200,
      what: `a check run and recorded (${what})`,
    });
  }

  async function recordedChecks(): Promise<number> {
    const history = await call('GET', `/api/websites/${website.publicId}/check-history`);
    return history.status === 200 ? (history.body.total as number) : -1;
  }

  it('commits or refuses each write (503 databaseUnavailable, Retry-After), then /readyz, /api/health and checks recover', async () => {
    await aCheckRuns('before the restart');

    const settled: Array<ApiResponse | undefined> = new Array(WRITES).fill(undefined);
    let answered = 0;
    const writes = Array.from({ length: WRITES }, (_, i) =>
      call('POST', '/api/organization/tokens', { name: `write-${i}` }).then((response) => {
        settled[i] = response;
        answered++;
        return response;
      }),
    );
    // Restart while most writes are still in flight: once the first few have been answered.
    await waitFor(() => answered >= 3, { timeoutMs: 20_000, everyMs: 1, what: 'the first writes answered' });
    const port = Number(/:(\d+)\/[^/]*$/.exec(postgres.url)![1]);
    await postgres.stop();
    postgres = await startEmbeddedPostgres(dataDir, { database: DATABASE, port });
    const responses = await Promise.all(writes);

    const statuses = responses.map((response) => response.status);
    const unexpected = responses.filter((response) => response.status !== 201 && response.status !== 503);
    expect(
      unexpected.map((response) => [response.status, response.body]),
      'answers other than 201 or 503',
    ).to.deep.equal([]);
    const refused = responses.filter((response) => response.status === 503);
    expect(refused.length, 'writes refused while PostgreSQL restarted').to.be.greaterThan(0);
    for (const response of refused) {
      expectError(response, 503, 'databaseUnavailable');
      expect(Number(response.headers.get('retry-after')), 'Retry-After').to.be.within(1, 30);
      expect(response.body.data.retryAfter).to.equal(Number(response.headers.get('retry-after')));
    }

    await waitFor(async () => (await apiAt(app.url, 'GET', '/readyz')).status === 200, {
      timeoutMs: 20_000,
      everyMs: 100,
      what: '/readyz 200',
    });
    await waitFor(async () => (await call('GET', '/api/health')).status === 200, {
      timeoutMs: 20_000,
      everyMs: 100,
      what: '/api/health 200',
    });

    const listed = await call('GET', '/api/organization/tokens?perPage=200');
    expect(listed.status).to.equal(200);
    const stored = new Set((listed.body.items as Array<{ name: string }>).map((t) => t.name));
    const committed = statuses.flatMap((status, i) => (status === 201 ? [`write-${i}`] : []));
    const notCommitted = statuses.flatMap((status, i) => (status === 503 ? [`write-${i}`] : []));
    expect(
      committed.filter((name) => !stored.has(name)),
      'answered 201 but not stored',
    ).to.deep.equal([]);
    expect(
      notCommitted.filter((name) => stored.has(name)),
      'answered 503 but stored',
    ).to.deep.equal([]);
    expect(stored.size).to.equal(committed.length);

    await aCheckRuns('after the restart');
  });
});
