import { expect } from 'chai';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { apiAt, type ApiResponse } from '../support/http-client';
import { mustCall, signUpAt } from '../support/fault-rig';
import { listening, logLines, spawnService, stopService, type ServiceProcess } from '../support/service-process';
import { StandalonePostgres } from '../support/standalone-postgres';
import { waitFor } from '../support/wait-for';

/** How long PostgreSQL stays frozen. */
const STALL_MS = 30_000;
/** Requests are started during the stall's first this many ms (one every SEND_EVERY_MS). */
const SEND_DURING_MS = 20_000;
const SEND_EVERY_MS = 250;
/** The bound every request started during the stall is answered within. */
const ANSWER_WITHIN_MS = 20_000;

interface Outcome {
  readonly name: string;
  readonly write: boolean;
  readonly startedAt: number;
  answeredAt?: number;
  response?: ApiResponse;
  failure?: string;
}

/**
 * A stalled PostgreSQL (SIGSTOP of the postmaster and its backends for 30 s: connections open, the
 * kernel takes every byte, nothing answers) under the real service process. Every request started
 * during the stall is answered within 20 s: 503 databaseUnavailable with Retry-After, not a wait as
 * long as the stall. /livez stays up, /readyz says not ready. After the thaw, writes work again and
 * none of the writes answered 503 exists.
 */
describe('PostgreSQL stalled for 30 s under the service', function () {
  this.timeout(240_000);
  let postgres: StandalonePostgres;
  let service: ServiceProcess;
  let url: string;
  let dataDir: string;

  before(async () => {
    postgres = await StandalonePostgres.start('stall');
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'fault-stall-'));
    service = spawnService({ DATABASE_URL: postgres.url, DATA_DIR: dataDir, CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8' });
    url = await listening(service);
  });

  after(async function () {
    if (this.currentTest?.state === 'failed' && service)
      process.stderr.write(`the service's last words:\n${service.output.stderr}${service.output.stdout.slice(-4000)}\n`);
    if (service) await stopService(service);
    await postgres?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('answers every request started during the stall within 20 s, commits none it refused, and recovers', async () => {
    const admin = await signUpAt(url, 'stall');
    const call = (method: string, route: string, body?: unknown) => apiAt(url, method, route, { token: admin.token, body });
    await mustCall(url, 'POST', '/api/tags', 201, { token: admin.token, body: { name: 'before the stall', color: '#3B82F6' } });

    await postgres.freeze();
    const frozenAt = Date.now();
    const outcomes: Outcome[] = [];
    const running: Array<Promise<void>> = [];
    let livez: number | undefined;
    let readyz: ApiResponse | undefined;
    for (let n = 0; Date.now() - frozenAt < SEND_DURING_MS; n++) {
      const write = n % 2 === 0;
      const outcome: Outcome = { name: `stall-${n}`, write, startedAt: Date.now() };
      outcomes.push(outcome);
      running.push(
        (write ? call('POST', '/api/tags', { name: outcome.name, color: '#3B82F6' }) : call('GET', '/api/customers')).then(
          (response) => {
            outcome.response = response;
            outcome.answeredAt = Date.now();
          },
          (error: Error) => {
            outcome.failure = `${error.message} ${String((error.cause as Error | undefined)?.message ?? '')}`;
          },
        ),
      );
      if (Date.now() - frozenAt > 8_000 && livez === undefined) {
        livez = (await apiAt(url, 'GET', '/livez')).status;
        readyz = await apiAt(url, 'GET', '/readyz');
      }
      await new Promise((resolve) => setTimeout(resolve, SEND_EVERY_MS));
    }
    // The thaw comes after the stall's full length, or once every request was answered, whichever is later.
    const thawing = new Promise<void>((resolve) =>
      setTimeout(() => void postgres.thaw().then(resolve), Math.max(0, STALL_MS - (Date.now() - frozenAt))),
    );
    await Promise.all(running);
    await thawing;

    expect(livez, '/livez during the stall').to.equal(200);
    expect(readyz?.status, '/readyz during the stall').to.equal(503);
    expect(readyz?.body.data.code).to.equal('databaseUnavailable');

    const failures = outcomes.filter((o) => o.failure !== undefined).map((o) => `${o.name}: ${o.failure}`);
    expect(failures, 'requests that got no answer').to.deep.equal([]);
    const slow = outcomes
      .filter((o) => o.answeredAt! - o.startedAt > ANSWER_WITHIN_MS)
      .map((o) => `${o.name}: ${o.answeredAt! - o.startedAt} ms`);
    expect(slow, `answered after more than ${ANSWER_WITHIN_MS} ms`).to.deep.equal([]);
    const refused = outcomes.filter((o) => o.response!.status === 503);
    expect(refused.length, 'requests refused during the stall').to.be.greaterThan(outcomes.length / 2);
    for (const { response } of refused) {
      expect(response!.body.data.code).to.equal('databaseUnavailable');
      expect(Number(response!.headers.get('retry-after'))).to.be.within(1, 30);
    }
    const unexpected = outcomes.filter((o) => ![200, 201, 503].includes(o.response!.status)).map((o) => [o.name, o.response!.status]);
    expect(unexpected, 'answers other than 200, 201 or 503').to.deep.equal([]);
    const slowest = Math.max(...outcomes.map((o) => o.answeredAt! - o.startedAt));
    expect(logLines(service).some((line) => line.msg?.toString().startsWith('the database does not answer'))).to.equal(true);

    await waitFor(async () => (await apiAt(url, 'GET', '/readyz')).status === 200, {
      timeoutMs: 30_000,
      everyMs: 200,
      what: '/readyz 200 after the thaw',
    });
    await waitFor(async () => (await call('POST', '/api/tags', { name: 'after the stall', color: '#3B82F6' })).status === 201, {
      timeoutMs: 30_000,
      everyMs: 200,
      what: 'a write after the thaw',
    });
    const tags = await mustCall(url, 'GET', '/api/tags', 200, { token: admin.token, query: { perPage: '100' } });
    const stored = new Set(((tags.items ?? tags) as Array<{ name: string }>).map((tag) => tag.name));
    const refusedButStored = refused.filter((o) => o.write && stored.has(o.name)).map((o) => o.name);
    expect(refusedButStored, 'writes answered 503 but committed').to.deep.equal([]);
    const answeredButLost = outcomes.filter((o) => o.write && o.response!.status === 201 && !stored.has(o.name)).map((o) => o.name);
    expect(answeredButLost, 'writes answered 201 but not stored').to.deep.equal([]);
    expect(stored.has('after the stall')).to.equal(true);
    console.log(`      ${outcomes.length} requests during the stall, ${refused.length} refused, slowest answer ${slowest} ms`);
  });
});
