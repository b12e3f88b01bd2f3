import { expect } from 'chai';
import pino from 'pino';
import { startApplication, type RunningApplication } from '../../../../src/main/application';
import { anOrganization } from '../../../support/builders';
import { anEngineFor, runUntilRecorded } from '../../../support/engine-runs';
import { aMonitorPackage, aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import { apiAt, expectError } from '../../../support/http-client';
import { DnsPeer } from '../../../support/peers/dns-peer';
import { testClock } from '../../../support/test-clock';
import { testConfig, testDatabase, testDnsServer } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const LOCATION = 'eu-west';
/** The one non-public address the operator allowlists here: where the monitor-named resolver listens. */
const ALLOWLISTED_RESOLVER = '127.0.0.2';

/**
 * A DNS monitor is a question to a resolver: the service asks the configured resolvers (DNS_SERVERS)
 * or the monitor's own, and never connects to the answer. So the resolver a monitor names is a
 * connection target and goes through the target policy (public, or CHECK_PRIVATE_ALLOWLIST), while
 * the name asked about may answer any address, private ones included.
 */
describe('DNS monitors: the resolver is policed, the answers are not', () => {
  const resolver = new DnsPeer(
    { 'internal-only.monitor-fixture.com': { A: ['10.20.30.40'] } },
    { address: ALLOWLISTED_RESOLVER, port: 53 },
  );
  const monitorIds = new Set<number>();
  let app: RunningApplication;
  let engine: Awaited<ReturnType<typeof anEngineFor>>;
  let token: string;
  let customerId: number;

  before(async () => {
    await resolver.start();
    const dns = await testDnsServer();
    dns.set('private-answer.monitor-fixture.com', { A: ['10.0.0.5'] });
    const config = testConfig({ DNS_SERVERS: dns.server, CHECK_PRIVATE_ALLOWLIST: `${ALLOWLISTED_RESOLVER}/32` });
    app = await startApplication(
      { ...config, databaseUrl: (await testDatabase()).url },
      {
        clock: testClock,
        jobs: false,
        checkWorker: false,
        notificationWorker: false,
        logger: pino({ level: 'silent' }),
      },
    );
    engine = await anEngineFor(monitorIds, [LOCATION], 'dns-targets', 90_000, app);
    const org = await anOrganization('dns-targets');
    token = org.token;
    customerId = (await aMonitoredCustomer(token, { packageId: (await aMonitorPackage(token)).id })).id;
  });
  after(async () => {
    await app?.stop();
    await resolver.stop();
  });

  const create = (body: Record<string, unknown>) =>
    apiAt(app.url, 'POST', '/api/monitors/dns', { token, body: { customerId, locations: [LOCATION], timeoutSeconds: 5, ...body } });

  /** Makes the monitor due now, runs the engine until it has a result, and answers the newest one. */
  async function checkNow(monitor: { id: number; publicId: string }) {
    monitorIds.add(monitor.id);
    await app.database.sql.query(sql`UPDATE check_schedule SET next_due_at = ${testClock.now()} WHERE monitor_id = ${monitor.id}`);
    await runUntilRecorded(engine, 1, 15_000, app);
    const history = await apiAt(app.url, 'GET', `/api/websites/${monitor.publicId}/check-history`, { token });
    expect(history.status, JSON.stringify(history.body)).to.equal(200);
    return history.body.items[0] as Record<string, any>;
  }

  it('refuses a name that resolves to a private address at creation and on update, saying why (invalidHostname)', async () => {
    const refused = await create({ hostname: 'private-answer.monitor-fixture.com', expectedValues: ['10.0.0.5'] });
    expectError(refused, 400, 'invalidHostname');
    expect(refused.body.data).to.include({ field: '/hostname', reason: 'nonPublicAddress', host: 'private-answer.monitor-fixture.com' });
    expect(refused.body.message).to.include('not a public address');
    expect(refused.body.data.hint).to.include('CHECK_PRIVATE_ALLOWLIST');
    const created = await create({ hostname: 'www.monitor-fixture.com' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const patched = await apiAt(app.url, 'PATCH', `/api/monitors/dns/${created.body.publicId}`, {
      token,
      body: { hostname: 'private-answer.monitor-fixture.com' },
    });
    expectError(patched, 400, 'invalidHostname');
  });

  it("accepts a name without address records (MX or TXT only) and checks it through the monitor's resolver", async () => {
    const created = await create({
      hostname: 'internal-only.monitor-fixture.com',
      resolver: ALLOWLISTED_RESOLVER,
      expectedValues: ['10.20.30.40'],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const result = await checkNow(created.body);
    expect(result, JSON.stringify(result)).to.include({ status: 'up' });
  });

  it('refuses a resolver at a private or loopback address outside the allowlist (invalidHostname), on create and on update', async () => {
    for (const address of ['10.0.0.53', '127.0.0.53', '192.168.1.1', 'fd00::53']) {
      expectError(await create({ hostname: 'www.monitor-fixture.com', resolver: address }), 400, 'invalidHostname');
    }
    // A nameserver is asked at its address: a name (even one answering public addresses) is refused,
    // where it used to be accepted and then fail every check as targetRejected.
    const named = await create({ hostname: 'www.monitor-fixture.com', resolver: 'public.monitor-fixture.com' });
    expectError(named, 400, 'invalidHostname');
    expect(named.body.data).to.include({ field: '/resolver', reason: 'notAnAddress' });
    const created = await create({ hostname: 'www.monitor-fixture.com', resolver: '9.9.9.9' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const patched = await apiAt(app.url, 'PATCH', `/api/monitors/dns/${created.body.publicId}`, { token, body: { resolver: '10.0.0.53' } });
    expectError(patched, 400, 'invalidHostname');
  });

  it('accepts a resolver the operator allowlisted, and the check asks that resolver', async () => {
    const created = await create({
      hostname: 'internal-only.monitor-fixture.com',
      resolver: ALLOWLISTED_RESOLVER,
      expectedValues: ['10.20.30.40'],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const result = await checkNow(created.body);
    expect(result, JSON.stringify(result)).to.include({ status: 'up' });
  });

  it("says so in /openapi.json: the name's addresses and the resolver are public or allowlisted", async () => {
    const schemas = (await apiAt(app.url, 'GET', '/openapi.json')).body.components.schemas;
    for (const id of ['DnsMonitorCreate', 'DnsMonitorPatch']) {
      const { hostname, resolver } = schemas[id].properties;
      expect(hostname.description, id).to.include('CHECK_PRIVATE_ALLOWLIST').and.include('without address records');
      expect(resolver.description, id).to.include('CHECK_PRIVATE_ALLOWLIST').and.include('invalidHostname');
    }
  });

  it('still refuses reserved names and addresses as the name asked about (invalidHostname)', async () => {
    for (const hostname of ['localhost', 'db.internal', 'printer.local', '10.0.0.5']) {
      expectError(await create({ hostname }), 400, 'invalidHostname');
    }
  });
});
