import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { api, expectError } from '../../support/http-client';
import { anOrganization, type SignedUp } from '../../support/builders';
import { aCustomerRow } from '../../support/identity-fixtures';
import { aMonitorRow } from '../../support/results-fixtures';
import { aCompactResult, aProbeSite, PROBE_STATUS, probeCall, type ProbeSite } from '../../support/probe-api';
import { testServer } from '../../support/test-server';

const db = async <T>(statement: ReturnType<typeof sql>) => (await testServer()).database.sql.query<T>(statement);

/** What a hostile call may send to each probe route: valid bodies naming organization A's monitor and time. */
type HostileBody = (a: { monitorId: number; now: number }) => unknown;
const HOSTILE_BODIES: Record<string, HostileBody> = {
  '/hello': () => ({ name: 'impostor', version: '0.0.0' }),
  '/schedule/register': () => ({ generation: 0 }),
  '/schedule/renew': () => ({ generation: 0 }),
  '/schedule/claim': () => ({ generation: 0, limit: 1_000, adoptLimit: 1_000 }),
  '/schedule/held': ({ monitorId }) => ({ generation: 0, monitorIds: [monitorId] }),
  '/schedule/release': ({ monitorId, now }) => ({ generation: 0, rows: [[monitorId, now, 60_000, 0]] }),
  '/schedule/resign': ({ monitorId, now }) => ({ generation: 0, rows: [[monitorId, now, 60_000, 0]] }),
  '/schedule/load': () => ({ generation: 0 }),
  '/schedule/changes': () => ({ after: 0 }),
  '/schedule/wait': () => ({ timeoutMs: 0 }),
  '/results': ({ monitorId, now }) => ({
    results: [aCompactResult(Number.MAX_SAFE_INTEGER, INSTANCE, monitorId, now, true)],
    status: { ...PROBE_STATUS, monitorsHeld: 777 },
  }),
  '/screenshots': ({ monitorId, now }) => ({ id: randomUUID(), monitorId, takenAt: now, png: 'iVBORw0KGgo=' }),
};

/** Organization A's probe process (the one the hostile calls name). */
const INSTANCE = randomUUID();

/**
 * The tenancy matrix's rows for the probe API (issue 46). The matrix proper calls every route with
 * users' credentials (all refused: probes only); here every probe route documented at /openapi.json
 * is called with a probe key of another organization, and of another location of the same
 * organization, naming organization A's process and monitors. Each must answer as for a process
 * unknown at the caller's location (409 probeNotRegistered; hello: 409 probeInstanceMoved, the id
 * being taken), and A's process, schedule rows and screenshots read back unchanged.
 */
describe('security: probe API tenancy (every probe route x a key of another location)', function () {
  this.timeout(60_000);
  let orgA: SignedUp;
  let siteA: ProbeSite;
  let monitorId: number;
  let now: number;

  /** Everything of A's a probe route could change. */
  const stateOfA = async () => ({
    probes: (await api('GET', `/api/locations/${siteA.code}/probes`, { token: orgA.token })).body.items,
    stream: await db(sql`SELECT instance_id, probe_key_id, location_id, last_seq, monitors_held, buffered, dropped,
                            last_seen_at FROM probes WHERE instance_id = ${INSTANCE}::uuid`),
    schedule: await db(sql`SELECT * FROM check_schedule
                           WHERE monitor_id = ${monitorId} ORDER BY location`),
    workers: await db(sql`SELECT worker_id, locations, alive_until FROM check_workers WHERE worker_id LIKE ${`probe:${INSTANCE}:%`}`),
    results: await db(sql`SELECT count(*) AS n FROM check_results WHERE monitor_id = ${monitorId}`),
    screenshots: await db(sql`SELECT count(*) AS n FROM check_screenshots WHERE monitor_id = ${monitorId}`),
  });

  before(async () => {
    orgA = await anOrganization('probe-tenant');
    siteA = await aProbeSite(orgA.token, 'tenant');
    const customerId = await aCustomerRow(orgA.user.organizationId);
    monitorId = (await aMonitorRow(orgA.user.organizationId, customerId, { locations: [siteA.code] })).id;
    // A's probe: said hello, checks as worker 0 and holds its monitor, and has reported once.
    const hello = await probeCall(siteA.key, INSTANCE, '/hello', { name: 'tenant-1', version: 'test' });
    expect(hello.status, JSON.stringify(hello.body)).to.equal(200);
    now = hello.body.serverTime;
    expect((await probeCall(siteA.key, INSTANCE, '/schedule/register', { generation: 0 })).status).to.equal(200);
    const claimed = await probeCall(siteA.key, INSTANCE, '/schedule/claim', { generation: 0, limit: 10, adoptLimit: 10 });
    expect(claimed.body.rows.map((row: number[]) => row[0])).to.deep.equal([monitorId]);
    const reported = await probeCall(siteA.key, INSTANCE, '/results', {
      results: [aCompactResult(1, INSTANCE, monitorId, now)],
      status: PROBE_STATUS,
    });
    expect(reported.body).to.include({ lastSeq: 1, recorded: 1 });
  });

  it('has a hostile call for every probe route the service documents', async () => {
    const documented = Object.keys((await api('GET', '/openapi.json')).body.paths)
      .filter((path) => path.startsWith('/api/probe/'))
      .map((path) => path.slice('/api/probe'.length));
    expect(documented.filter((path) => !HOSTILE_BODIES[path])).to.deep.equal([]);
    expect(documented).to.have.length(Object.keys(HOSTILE_BODIES).length);
  });

  for (const [label, keyOf] of [
    ["another organization's key", async () => (await aProbeSite((await anOrganization('probe-intruder')).token, 'intruder')).key],
    ['a key of another location of the same organization', async () => (await aProbeSite(orgA.token, 'sibling')).key],
    ["a platform location's key", async () => (await aProbeSite('platform', 'shared')).key],
  ] as const) {
    it(`answers every probe route called with ${label} as for an unknown process, and changes nothing of A's`, async () => {
      const key = await keyOf();
      const before = await stateOfA();
      for (const [path, body] of Object.entries(HOSTILE_BODIES)) {
        const answer = await probeCall(key, INSTANCE, path, body({ monitorId, now }));
        expectError(answer, 409, path === '/hello' ? 'probeInstanceMoved' : 'probeNotRegistered');
      }
      expect(await stateOfA()).to.deep.equal(before);
    });
  }
});
