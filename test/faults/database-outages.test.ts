import { expect } from 'chai';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { apiAt, type ApiResponse } from '../support/http-client';
import { mustCall, signUpAt } from '../support/fault-rig';
import { listening, spawnService, stopService, type ServiceProcess } from '../support/service-process';
import { StandalonePostgres } from '../support/standalone-postgres';
import { waitFor } from '../support/wait-for';

/** A loopback HTTP target the service checks; counts the checks that reach it. */
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

/** Every answer is 2xx, or 503 databaseUnavailable with a Retry-After of a few seconds: never a 500. */
function expectCleanAnswers(responses: readonly ApiResponse[], what: string): ApiResponse[] {
  const unexpected = responses.filter((r) => !(r.status >= 200 && r.status < 300) && r.status !== 503);
  expect(
    unexpected.map((r) => [r.status, r.body]),
    `${what}: answers other than 2xx or 503`,
  ).to.deep.equal([]);
  const refused = responses.filter((r) => r.status === 503);
  for (const response of refused) {
    expect(response.body.data.code, what).to.equal('databaseUnavailable');
    expect(Number(response.headers.get('retry-after')), `${what}: Retry-After`).to.be.within(1, 30);
  }
  return refused;
}

/**
 * The real service process on a PostgreSQL of the test's own, which the test restarts, crashes and
 * fills up: each time the service answers cleanly (2xx, or 503 databaseUnavailable with
 * Retry-After), keeps /livez up and /readyz truthful, loses no write it acknowledged, writes none it
 * refused, and recovers without a restart of its own, its checks included.
 */
describe('PostgreSQL restarted, crashed and out of connections under the service', function () {
  this.timeout(300_000);
  const target = new CountingTarget();
  let postgres: StandalonePostgres;
  let service: ServiceProcess;
  let dataDir: string;
  let url: string;
  let token: string;
  let website: { publicId: string };

  const call = (method: string, route: string, body?: unknown) => apiAt(url, method, route, { token, body });

  before(async () => {
    await target.start();
    postgres = await StandalonePostgres.start('outages');
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fault-outages-'));
    service = spawnService({ DATABASE_URL: postgres.url, DATA_DIR: dataDir, CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8' });
    url = await listening(service);
    token = (await signUpAt(url, 'outages')).token;
    const pkg = await mustCall(url, 'POST', '/api/package-configs', 201, {
      token,
      body: { key: 'outages', displayName: 'Outages', minCheckIntervalMinutes: 1, quotaTiers: [{ monitorLimit: 10, priceMonthly: 0 }] },
    });
    const customer = await mustCall(url, 'POST', '/api/customers', 200, {
      token,
      body: { name: 'Customer', email: 'customer@test.example', packageId: pkg.id },
    });
    website = await mustCall(url, 'POST', '/api/websites', 201, {
      token,
      body: { customerId: customer.customer.id, url: target.url, timeoutSeconds: 5, checkInterval: 1 },
    });
  });

  after(async function () {
    if (this.currentTest?.state === 'failed' && service) process.stderr.write(`the service's stderr:\n${service.output.stderr}\n`);
    if (service) await stopService(service);
    await postgres?.close();
    await target.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  /** Asks for a check now and waits until it reached the target and its result is recorded. */
  async function aCheckRuns(what: string): Promise<void> {
    const hitsBefore = target.hits;
    const recordedBefore = await recordedChecks();
    await waitFor(async () => (await call('POST', `/api/websites/${website.publicId}/trigger-check`)).status === 202, {
      timeoutMs: 30_000,
      everyMs: 250,
      what: `trigger-check accepted (${what})`,
    });
    await waitFor(async () => target.hits > hitsBefore && (await recordedChecks()) > recordedBefore, {
      timeoutMs: 30_000,
      everyMs: 250,
      what: `a check run and recorded (${what})`,
    });
  }

  async function recordedChecks(): Promise<number> {
    const history = await call('GET', `/api/websites/${website.publicId}/check-history`);
    return history.status === 200 ? (history.body.total as number) : -1;
  }

  /** Waits until the service is ready again and writes. */
  async function recovered(what: string): Promise<void> {
    await waitFor(async () => (await apiAt(url, 'GET', '/readyz')).status === 200, {
      timeoutMs: 30_000,
      everyMs: 200,
      what: `/readyz 200 (${what})`,
    });
    await waitFor(async () => (await call('POST', '/api/organization/tokens', { name: `after ${what}` })).status === 201, {
      timeoutMs: 30_000,
      everyMs: 200,
      what: `a write (${what})`,
    });
  }

  /** The names of the organization's API tokens (the writes these tests make). */
  async function storedTokens(): Promise<Set<string>> {
    const names = new Set<string>();
    for (let page = 1; ; page++) {
      const listed = await mustCall(url, 'GET', '/api/organization/tokens', 200, { token, query: { perPage: '200', page: String(page) } });
      for (const item of listed.items as Array<{ name: string }>) names.add(item.name);
      if (page * 200 >= listed.total) return names;
    }
  }

  it('a fast restart under 100 in-flight writes: each is committed or refused as retryable, then checks run again', async () => {
    await aCheckRuns('before the restart');
    let answered = 0;
    const writes = Array.from({ length: 100 }, (_, i) =>
      call('POST', '/api/organization/tokens', { name: `restart-${i}` }).then((response) => {
        answered++;
        return response;
      }),
    );
    await waitFor(() => answered >= 3, { timeoutMs: 20_000, everyMs: 1, what: 'the first writes answered' });
    await postgres.stop();
    await postgres.restart();
    const responses = await Promise.all(writes);
    const refused = expectCleanAnswers(responses, 'during the restart');
    expect(refused.length, 'writes refused while PostgreSQL restarted').to.be.greaterThan(0);

    await recovered('the restart');
    const stored = await storedTokens();
    const statuses = responses.map((r) => r.status);
    expect(
      statuses.flatMap((s, i) => (s === 201 && !stored.has(`restart-${i}`) ? [`restart-${i}`] : [])),
      'answered 201 but not stored',
    ).to.deep.equal([]);
    expect(
      statuses.flatMap((s, i) => (s === 503 && stored.has(`restart-${i}`) ? [`restart-${i}`] : [])),
      'answered 503 but stored',
    ).to.deep.equal([]);
    await aCheckRuns('after the restart');
  });

  it('a crash (kill -9 of the postmaster) and 15 s down: clean 503s within seconds, /livez up, /readyz not ready, then all recovers', async () => {
    await postgres.crash();
    const downAt = Date.now();
    const during: Array<{ response: ApiResponse; ms: number; wrote?: string }> = [];
    let livez = 0;
    let readyz = 0;
    while (Date.now() - downAt < 15_000) {
      const started = Date.now();
      const name = `crash-${during.length}`;
      const [write, read] = await Promise.all([call('POST', '/api/organization/tokens', { name }), call('GET', '/api/customers')]);
      during.push({ response: write, ms: Date.now() - started, wrote: name }, { response: read, ms: Date.now() - started });
      livez = (await apiAt(url, 'GET', '/livez')).status;
      readyz = (await apiAt(url, 'GET', '/readyz')).status;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const refused = expectCleanAnswers(
      during.map((d) => d.response),
      'while PostgreSQL is down',
    );
    expect(refused.length, 'requests refused while PostgreSQL is down').to.be.greaterThan(during.length / 2);
    expect(Math.max(...during.map((d) => d.ms)), 'the slowest answer while down (ms)').to.be.below(10_000);
    expect(livez, '/livez while PostgreSQL is down').to.equal(200);
    expect(readyz, '/readyz while PostgreSQL is down').to.equal(503);

    await postgres.restart();
    await recovered('the crash');
    const stored = await storedTokens();
    expect(
      during.filter((d) => d.wrote && d.response.status === 503 && stored.has(d.wrote)).map((d) => d.wrote),
      'writes answered 503 but stored',
    ).to.deep.equal([]);
    await aCheckRuns('after the crash');
  });

  it('connections exhausted at the server: clean 503s, then writes at once when they are given back', async () => {
    // Take every connection the server has left (as the same role as the service, so no slot is reserved for it).
    const hogs: pg.Client[] = [];
    for (;;) {
      const client = new pg.Client({ connectionString: postgres.url });
      client.on('error', () => undefined);
      try {
        await client.connect();
        hogs.push(client);
      } catch {
        break;
      }
    }
    expect(hogs.length, 'connections taken').to.be.greaterThan(0);
    try {
      // More requests at once than the service's pools hold open: some need a new connection, which the server refuses.
      const responses = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          i % 2 === 0 ? call('POST', '/api/organization/tokens', { name: `full-${i}` }) : call('GET', '/api/customers'),
        ),
      );
      expectCleanAnswers(responses, 'with the server out of connections');
    } finally {
      await Promise.all(hogs.map((client) => client.end().catch(() => undefined)));
    }
    const started = Date.now();
    await recovered('the connections given back');
    expect(Date.now() - started, 'recovery after the connections were given back (ms)').to.be.below(5_000);
  });
});
