import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import pino from 'pino';
import { startApplication, type RunningApplication } from '../../../src/main/application';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { api, expectError } from '../../support/http-client';
import { anOrganization, type SignedUp } from '../../support/builders';
import { aCustomerRow } from '../../support/identity-fixtures';
import { aMonitorRow } from '../../support/results-fixtures';
import { aCompactResult, aProbeSite, PROBE_STATUS, probeCall, type ProbeSite } from '../../support/probe-api';
import { testConfig, testDatabase, testServer } from '../../support/test-server';

const db = async <T>(statement: ReturnType<typeof sql>) => (await testServer()).database.sql.query<T>(statement);

/** Results stored for a monitor (every location, raw rows). */
const storedFor = async (monitorId: number) =>
  Number((await db<{ n: string }>(sql`SELECT count(*) AS n FROM check_results WHERE monitor_id = ${monitorId}`))[0]!.n);

/** A JSON object nested `depth` levels, as text (JSON.stringify would overflow the stack first). */
const nestedJson = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

/**
 * The probe API as an attacker holding a valid probe key of their own would try it (issue 46): every
 * call acts only for a process registered at the calling key's location, hostile values are refused
 * at the edge with 400 naming the field, and nothing a caller sends reaches the database unbounded.
 */
describe('probe API under a hostile key', function () {
  this.timeout(60_000);
  let orgA: SignedUp;
  let siteA: ProbeSite;
  let otherSiteA: ProbeSite;
  let siteB: ProbeSite;
  let platformSite: ProbeSite;
  let monitorId: number;
  const instance = randomUUID();
  let serverTime: number;
  let seq = 0;

  /** A's own probe sends one more result: answers what the service said. */
  const aResultFromA = async () => {
    seq += 1;
    const sent = await probeCall(siteA.key, instance, '/results', {
      results: [aCompactResult(seq, instance, monitorId, serverTime + seq)],
      status: PROBE_STATUS,
    });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    return sent.body as Record<string, number>;
  };
  /** A's probe processes as A's admins see them. */
  const probesOfA = async () => (await api('GET', `/api/locations/${siteA.code}/probes`, { token: orgA.token })).body.items;

  before(async () => {
    orgA = await anOrganization('probe-owner');
    const orgB = await anOrganization('probe-stranger');
    [siteA, otherSiteA, siteB, platformSite] = await Promise.all([
      aProbeSite(orgA.token, 'office'),
      aProbeSite(orgA.token, 'branch'),
      aProbeSite(orgB.token, 'stranger'),
      aProbeSite('platform', 'platform'),
    ]);
    const customerId = await aCustomerRow(orgA.user.organizationId);
    monitorId = (await aMonitorRow(orgA.user.organizationId, customerId, { locations: [siteA.code] })).id;
    const hello = await probeCall(siteA.key, instance, '/hello', { name: 'office-1', version: 'test' });
    expect(hello.status, JSON.stringify(hello.body)).to.equal(200);
    serverTime = hello.body.serverTime;
    await aResultFromA();
  });

  it("refuses results naming another organization's process (or another location's) as unknown, and A's stream and status stay", async () => {
    const [before] = await probesOfA();
    expect(before).to.include({ monitorsHeld: PROBE_STATUS.monitorsHeld });
    for (const hostile of [siteB, otherSiteA, platformSite]) {
      const status = { ...PROBE_STATUS, monitorsHeld: 777 };
      expectError(await probeCall(hostile.key, instance, '/results', { results: [], status }), 409, 'probeNotRegistered');
      const forged = [aCompactResult(Number.MAX_SAFE_INTEGER, instance, monitorId, serverTime)];
      expectError(await probeCall(hostile.key, instance, '/results', { results: forged, status }), 409, 'probeNotRegistered');
    }
    expect((await probesOfA())[0]).to.deep.equal(before);
    // A's real probe goes on: its next result is stored, not answered as a duplicate.
    expect(await aResultFromA()).to.include({ lastSeq: seq, duplicates: 0, late: 1 });
  });

  it('refuses results of a process that never said hello (409 probeNotRegistered), and stores none of them, sent once or twice', async () => {
    const stranger = randomUUID();
    const storedBefore = await storedFor(monitorId);
    const batch = { results: [aCompactResult(1, stranger, monitorId, serverTime + 500)], status: PROBE_STATUS };
    expectError(await probeCall(siteA.key, stranger, '/results', batch), 409, 'probeNotRegistered');
    expectError(await probeCall(siteA.key, stranger, '/results', batch), 409, 'probeNotRegistered');
    expect(await storedFor(monitorId)).to.equal(storedBefore);
  });

  it("drops results dated over a minute ahead of the service's clock (tooNew): nothing stored, no partition made for their day", async () => {
    const day = 86_400_000;
    const partitionOf = (at: number) => `check_results_p${new Date(at).toISOString().slice(0, 10).replaceAll('-', '')}`;
    const ahead = [serverTime + 40 * day, serverTime + 3_650 * day];
    const storedBefore = await storedFor(monitorId);
    const results = ahead.map((at) => aCompactResult((seq += 1), instance, monitorId, at));
    const answer = await probeCall(siteA.key, instance, '/results', { results, status: PROBE_STATUS });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.include({ tooNew: 2, recorded: 0, late: 0, lastSeq: seq });
    expect(await storedFor(monitorId)).to.equal(storedBefore);
    for (const at of ahead) {
      const [row] = await db<{ present: boolean }>(sql`SELECT to_regclass(${partitionOf(at)}) IS NOT NULL AS present`);
      expect(row!.present, partitionOf(at)).to.equal(false);
    }
  });

  describe('hostile values answer 400 naming the field, never 500', () => {
    const withResult = (index: number, value: unknown) => {
      const result = aCompactResult(999_999, instance, monitorId, serverTime);
      result[index] = value;
      return JSON.stringify({ results: [result], status: PROBE_STATUS });
    };
    const cases: Array<[string, () => string, string]> = [
      ['checkedAt 2^53-1', () => withResult(5, Number.MAX_SAFE_INTEGER), 'results.0.5'],
      ['checkedAt -(2^53-1)', () => withResult(5, -Number.MAX_SAFE_INTEGER), 'results.0.5'],
      ['checkedAt 8.64e15', () => withResult(5, 8.64e15), 'results.0.5'],
      ['evidence 10,000 levels deep', () => withResult(13, '@').replace('"@"', nestedJson(10_000)), 'results.0.13'],
      ['evidence 100,000 levels deep', () => withResult(13, '@').replace('"@"', nestedJson(100_000)), 'results.0.13'],
      ['evidence of 1 MB', () => withResult(13, { body: 'x'.repeat(1_000_000) }), 'results.0.13'],
      [
        'monitorsHeld 2^31',
        () => JSON.stringify({ results: [], status: { ...PROBE_STATUS, monitorsHeld: 2 ** 31 } }),
        'status.monitorsHeld',
      ],
      [
        'buffered 2^53-1',
        () => JSON.stringify({ results: [], status: { ...PROBE_STATUS, buffered: Number.MAX_SAFE_INTEGER } }),
        'status.buffered',
      ],
      [
        'checksPerSecond 1e308',
        () => JSON.stringify({ results: [], status: { ...PROBE_STATUS, checksPerSecond: 1e308 } }),
        'status.checksPerSecond',
      ],
    ];
    for (const [what, body, field] of cases) {
      it(what, async () => {
        const answer = await probeCall(siteA.key, instance, '/results', null, { rawBody: body() });
        expectError(answer, 400, 'validationFailed');
        expect(answer.body.data.issues.map((i: { path: string[] }) => i.path.join('.'))).to.include(field);
      });
    }

    it('a schedule row or a screenshot dated out of range', async () => {
      const rows = [[monitorId, 8.64e15, 60_000, 0]];
      expectError(await probeCall(siteA.key, instance, '/schedule/release', { generation: 0, rows }), 400, 'validationFailed');
      const shot = { id: randomUUID(), monitorId, takenAt: -Number.MAX_SAFE_INTEGER, png: 'iVBORw0KGgo=' };
      expectError(await probeCall(siteA.key, instance, '/screenshots', shot), 400, 'validationFailed');
    });
  });

  it('refuses hello with a key whose location was deleted a moment ago (401, not 500), though the key cache still holds it', async () => {
    const doomed = await aProbeSite(orgA.token, 'doomed');
    const probe = randomUUID();
    expect((await probeCall(doomed.key, probe, '/hello', {})).status).to.equal(200);
    const deleted = await api('DELETE', `/api/locations/${doomed.code}`, { token: orgA.token });
    expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
    expectError(await probeCall(doomed.key, randomUUID(), '/hello', {}), 401, 'unauthorized');
    expectError(await probeCall(doomed.key, probe, '/hello', {}), 401, 'unauthorized');
    expectError(await probeCall(doomed.key, probe, '/schedule/load', { generation: 0 }), 409, 'probeNotRegistered');
  });

  it('refuses a body that is not JSON with 415 unsupportedMediaType', async () => {
    const answer = await probeCall(siteA.key, instance, '/schedule/load', null, {
      rawBody: '{"generation":0}',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(answer, 415, 'unsupportedMediaType');
  });

  it('closes the connection after refusing a 17 MiB chunked body (413), so nothing hangs behind it', async () => {
    const { url } = await testServer();
    const { hostname, port } = new URL(url);
    const socket = net.connect(Number(port), hostname);
    socket.on('error', () => undefined); // the server may close while the rest of the body is still being written
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST /api/probe/results HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${siteA.key}\r\n` +
        `X-Probe-Instance: ${instance}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n`,
    );
    const chunk = randomBytes(512 * 1024).toString('hex'); // 1 MiB of text
    for (let i = 0; i < 17 && !socket.destroyed; i++) {
      socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    socket.write(`0\r\n\r\nGET /livez HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
    await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error('connection left open')), 10_000))]);
    const text = Buffer.concat(received).toString('utf8');
    expect(text).to.match(/^HTTP\/1\.1 413 /);
    expect(text.toLowerCase()).to.include('connection: close');
    expect(text).to.include('"code":"payloadTooLarge"');
    // The owner's next read is answered at once.
    expect((await api('GET', `/api/locations/${siteA.code}`, { token: orgA.token })).status).to.equal(200);
  });

  describe('unknown keys from one client address', () => {
    let app: RunningApplication;
    before(async () => {
      // A service of its own, so this test's refusals do not count against the other tests' address.
      const config = { ...testConfig(), databaseUrl: (await testDatabase()).url };
      app = await startApplication(config, { jobs: false, checkWorker: false, logger: pino({ level: 'silent' }) });
    });
    after(async () => app?.stop());

    it('are limited as every failed credential is (429 rateLimited with retryAfter), while a known key goes on', async () => {
      expect((await probeCall(siteA.key, instance, '/schedule/load', { generation: 0 }, { url: app.url })).status).to.equal(200);
      const answers: number[] = [];
      for (let i = 0; i < 25; i++) {
        answers.push((await probeCall(`pk_${randomBytes(32).toString('base64url')}`, instance, '/hello', {}, { url: app.url })).status);
      }
      expect(answers.slice(0, 20)).to.deep.equal(Array(20).fill(401));
      expect(answers.slice(20)).to.deep.equal(Array(5).fill(429));
      const refused = await probeCall(`pk_${randomBytes(32).toString('base64url')}`, instance, '/hello', {}, { url: app.url });
      expectError(refused, 429, 'rateLimited');
      expect(refused.body.data.retryAfter).to.be.a('number').and.to.be.at.least(1);
      expect((await probeCall(siteA.key, instance, '/schedule/load', { generation: 0 }, { url: app.url })).status).to.equal(200);
    });
  });
});
