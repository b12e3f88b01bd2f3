import { expect } from 'chai';
import pino from 'pino';
import { startApplication, type RunningApplication } from '../../../../src/main/application';
import { anOrganization } from '../../../support/builders';
import { anEngineFor, runUntilRecorded } from '../../../support/engine-runs';
import { aMonitorPackage, aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import { testCertificates } from '../../../support/peers/certificates';
import { HttpPeer, type SeenRequest } from '../../../support/peers/http-peer';
import { testClock } from '../../../support/test-clock';
import { testConfig, testDatabase, testDnsServer } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const LOCATION = 'eu-west';

/** What a peer saw, each different request once (a monitor may be checked more than once while the engine runs). */
const distinct = <T>(requests: SeenRequest[], view: (request: SeenRequest) => T): T[] => [
  ...new Map(requests.map((request) => [JSON.stringify(view(request)), view(request)])).values(),
];
/** The service's own User-Agent: package name and version, and testConfig's PUBLIC_BASE_URL. */
const SERVICE_USER_AGENT = 'MonitoringService/1.0.0 (+http://api.test.example)';
/** Public-looking names the test DNS server answers with loopback (admitted by the allowlist below). */
const SITE = 'connect-site.monitor-fixture.com';
const ORIGIN = 'connect-origin.monitor-fixture.com';

/**
 * connectHost end to end: a monitor written through the API in the spec's `host:port` form is
 * checked by the real engine, whose request must reach the connectHost peer (not the url's) with
 * the url's Host header and SNI. The service here runs as an operator would run it to reach
 * loopback: CHECK_PRIVATE_ALLOWLIST admits 127.0.0.0/8 and ::1 for both monitor validation and the
 * checks, and the real target policy (not a test stand-in) vets every connection.
 */
describe('connectHost end to end: API write, engine check, the request at the connectHost peer', () => {
  const certs = testCertificates();
  const urlPeer = new HttpPeer();
  const origin = new HttpPeer();
  const secureOrigin = new HttpPeer(certs.selfSigned);
  const v6Origin = new HttpPeer(undefined, '::1');
  const monitorIds = new Set<number>();
  let app: RunningApplication;
  /** One engine for the whole file: it keeps the lease of the rows it ran, so a second engine would not get them. */
  let engine: Awaited<ReturnType<typeof anEngineFor>>;

  before(async () => {
    await Promise.all([urlPeer.start(), origin.start(), secureOrigin.start(), v6Origin.start()]);
    const dns = await testDnsServer();
    dns.set(SITE, { A: ['127.0.0.1'] });
    dns.set(ORIGIN, { A: ['127.0.0.1'] });
    const config = testConfig({ DNS_SERVERS: dns.server, CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8,::1/128' });
    app = await startApplication(
      { ...config, databaseUrl: (await testDatabase()).url },
      {
        clock: testClock,
        jobs: false,
        checkWorker: false,
        logger: pino({ level: 'silent' }),
      },
    );
    engine = await anEngineFor(monitorIds, [LOCATION], 'connect-host', 90_000, app);
  });
  after(async () => {
    await app?.stop();
    await Promise.all([urlPeer.stop(), origin.stop(), secureOrigin.stop(), v6Origin.stop()]);
  });
  beforeEach(() => {
    for (const peer of [urlPeer, origin, secureOrigin, v6Origin]) peer.requests.length = 0;
  });
  // Each test's monitors end with it, so the engine runs no earlier one (a held row can fall due
  // again when the engine reloads it) and the peers see only the current test's checks.
  const created: { token: string; publicId: string }[] = [];
  afterEach(async () => {
    for (const { token, publicId } of created.splice(0))
      expect((await call('DELETE', `/api/websites/${publicId}`, token)).status).to.equal(200);
    monitorIds.clear();
  });

  /** The API of the allowlisting service (the shared test server admits public targets only). */
  async function call(method: string, path: string, token: string, body?: unknown) {
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  async function aCustomer() {
    const org = await anOrganization('connect-host');
    const pkg = await aMonitorPackage(org.token);
    const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
    return { token: org.token, customerId: customer.id };
  }

  async function aWebsite(token: string, customerId: number, fields: Record<string, unknown>) {
    const response = await call('POST', '/api/websites', token, { customerId, locations: [LOCATION], timeoutSeconds: 5, ...fields });
    expect(response.status, JSON.stringify(response.body)).to.equal(201);
    // not due until triggered (the test clock runs ahead of real time)
    await app.database.sql.query(
      sql`UPDATE check_schedule SET next_due_at = ${new Date(testClock.now().getTime() + 3_600_000)} WHERE monitor_id = ${response.body.id}`,
    );
    monitorIds.add(response.body.id);
    created.push({ token, publicId: response.body.publicId });
    return response.body;
  }

  const historyOf = async (token: string, publicId: string) => {
    const history = await call('GET', `/api/websites/${publicId}/check-history`, token);
    expect(history.status).to.equal(200);
    return history.body.items as Record<string, unknown>[];
  };

  /** Triggers a check, lets the engine of the allowlisting service run until this monitor has a new result, answers it. */
  async function checkNow(token: string, publicId: string) {
    const before = (await historyOf(token, publicId)).length;
    expect((await call('POST', `/api/websites/${publicId}/trigger-check`, token)).status).to.equal(202);
    for (let round = 0; round < 5; round++) {
      await runUntilRecorded(engine, 1, 15_000, app);
      const items = await historyOf(token, publicId);
      if (items.length > before) return items[0]!;
    }
    throw new Error(`no new result for ${publicId}`);
  }

  it("host:port form (the spec's): stored as written, the check reaches that port with the url's Host header and the service's User-Agent", async () => {
    const { token, customerId } = await aCustomer();
    const url = `http://${SITE}:${urlPeer.port}/status/200`;
    const site = await aWebsite(token, customerId, { url, connectHost: `127.0.0.1:${origin.port}` });
    expect(site).to.include({ connectHost: `127.0.0.1:${origin.port}`, connectPort: origin.port });

    const result = await checkNow(token, site.publicId);
    expect(result, JSON.stringify(result)).to.include({ status: 'up' });
    expect(distinct(origin.requests, (r) => [r.url, r.host, ...r.userAgents])).to.deep.equal([
      ['/status/200', `${SITE}:${urlPeer.port}`, SERVICE_USER_AGENT],
    ]);
    expect(urlPeer.requests, "the url's own server is not contacted").to.have.length(0);
  });

  it('bracketed IPv6 with a port ([::1]:port) and a name with a port resolved through DNS', async () => {
    const { token, customerId } = await aCustomer();
    const url = `http://${SITE}:${urlPeer.port}/status/201`;
    const v6 = await aWebsite(token, customerId, { url, connectHost: `[::1]:${v6Origin.port}` });
    expect(v6).to.include({ connectHost: `[::1]:${v6Origin.port}`, connectPort: v6Origin.port });
    expect(await checkNow(token, v6.publicId)).to.include({ status: 'up' });
    expect(distinct(v6Origin.requests, (r) => [r.url, r.host])).to.deep.equal([['/status/201', `${SITE}:${urlPeer.port}`]]);

    const named = await aWebsite(token, customerId, {
      url: `http://${SITE}:${urlPeer.port}/status/202`,
      connectHost: `${ORIGIN.toUpperCase()}:${origin.port}`,
    });
    expect(named).to.include({ connectHost: `${ORIGIN}:${origin.port}` });
    expect(await checkNow(token, named.publicId)).to.include({ status: 'up' });
    expect(distinct(origin.requests, (r) => [r.url, r.host])).to.deep.equal([['/status/202', `${SITE}:${urlPeer.port}`]]);
    expect(urlPeer.requests).to.have.length(0);
  });

  it("PATCH moves the checks: no connectHost reaches the url's server, a host:port then the connectHost peer, null back to the url", async () => {
    const { token, customerId } = await aCustomer();
    const site = await aWebsite(token, customerId, { url: `http://${SITE}:${urlPeer.port}/status/203` });
    expect(await checkNow(token, site.publicId)).to.include({ status: 'up' });
    expect(urlPeer.requests).to.have.length.at.least(1);
    expect(origin.requests).to.have.length(0);

    const patched = await call('PATCH', `/api/websites/${site.publicId}`, token, { connectHost: `127.0.0.1:${origin.port}` });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body).to.include({ connectHost: `127.0.0.1:${origin.port}`, connectPort: origin.port });
    const atUrl = urlPeer.requests.length;
    expect(await checkNow(token, site.publicId)).to.include({ status: 'up' });
    expect(origin.requests.map((r) => r.host)).to.include(`${SITE}:${urlPeer.port}`);
    expect(urlPeer.requests, "no check at the url's server once connectHost is set").to.have.length(atUrl);

    const cleared = await call('PATCH', `/api/websites/${site.publicId}`, token, { connectHost: null });
    expect(cleared.body).to.include({ connectHost: null, connectPort: null });
    const atOrigin = origin.requests.length;
    expect(await checkNow(token, site.publicId)).to.include({ status: 'up' });
    expect(urlPeer.requests).to.have.length.above(atUrl);
    expect(origin.requests, 'no check at the connectHost once cleared').to.have.length(atOrigin);
  });

  it("HTTPS through connectHost keeps the url's name as SNI and Host (connectTlsInsecure accepts the origin's own certificate)", async () => {
    const { token, customerId } = await aCustomer();
    const site = await aWebsite(token, customerId, {
      url: `https://${SITE}/status/204`,
      connectHost: `${ORIGIN}:${secureOrigin.port}`,
      connectTlsInsecure: true,
      // about names, not certificate dates: the shared test clock may run days ahead of the certificate's
      checkSslEnabled: false,
    });
    const result = await checkNow(token, site.publicId);
    expect(result, JSON.stringify(result)).to.include({ status: 'up' });
    expect(distinct(secureOrigin.requests, (r) => [r.url, r.host, r.servername])).to.deep.equal([['/status/204', SITE, SITE]]);
  });

  it("a monitor's own User-Agent header replaces the service's", async () => {
    const { token, customerId } = await aCustomer();
    const site = await aWebsite(token, customerId, {
      url: `http://${SITE}:${urlPeer.port}/status/205`,
      headers: { 'user-AGENT': 'ShopProbe/3.1' },
    });
    expect(await checkNow(token, site.publicId)).to.include({ status: 'up' });
    expect(distinct(urlPeer.requests, (r) => r.userAgents)).to.deep.equal([['ShopProbe/3.1']]);
  });

  it('refuses a connectPort contradicting the port in connectHost (connectHostInvalid), accepts an equal one', async () => {
    const { token, customerId } = await aCustomer();
    const base = { customerId, url: `http://${SITE}/`, locations: [LOCATION] };
    const refused = await call('POST', '/api/websites', token, {
      ...base,
      connectHost: `127.0.0.1:${origin.port}`,
      connectPort: origin.port + 1,
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.data).to.deep.include({ code: 'connectHostInvalid', field: '/connectPort' });
    const accepted = await call('POST', '/api/websites', token, {
      ...base,
      connectHost: `127.0.0.1:${origin.port}`,
      connectPort: origin.port,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(201);
    const contradicting = await call('PATCH', `/api/websites/${accepted.body.publicId}`, token, { connectPort: 9443 });
    expect(contradicting.status).to.equal(400);
    expect(contradicting.body.data).to.deep.include({ code: 'connectHostInvalid' });
  });
});
