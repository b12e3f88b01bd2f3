import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitorPackage, aMonitoredCustomer, aWebsite, PUBLIC_URL, storedMonitor } from '../../../support/monitoring-fixtures';
import { testConfig, testServer } from '../../../support/test-server';
import { WebsiteSchema } from '../../../../src/interfaces/http/monitoring/response.schemas';
import { currentStateRecord, websiteRecord } from '../../../../src/application/monitoring/monitor-records';
import { MONITOR_COLUMNS, toItem } from '../../../../src/infrastructure/monitoring/monitor-rows';
import { renderStaleWebsiteDocuments } from '../../../../src/infrastructure/monitoring/website-document';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';
import type { ApiResponse } from '../../../support/http-client';
import { raw, sql } from '../../../../src/infrastructure/persistence/sql';

async function setup(packageBody: Parameters<typeof aMonitorPackage>[1] = {}) {
  const org = await anOrganization('websites');
  const pkg = await aMonitorPackage(org.token, packageBody);
  const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
  return { org, customer, token: org.token };
}

describe('websites: create, read, list, update, delete', () => {
  it('creates an HTTP page check and answers the website record', async () => {
    const { token, customer } = await setup();
    const created = await api('POST', '/api/websites', {
      token,
      body: {
        customerId: customer.id,
        url: PUBLIC_URL,
        name: 'Shop',
        keyword: 'ok',
        checkKeywordEnabled: true,
        locations: ['eu-west', 'us-east'],
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({
      name: 'Shop',
      url: PUBLIC_URL,
      monitoringType: 'http',
      status: 'active',
      managementType: 'managed',
      customerId: customer.id,
      customerPublicId: customer.publicId,
      checkInterval: 5,
      timeoutSeconds: 30,
      keyword: 'ok',
      checkKeywordEnabled: true,
      checkSslEnabled: true,
      sslNoticeDays: 14,
      connectHost: null,
      heartbeatToken: null,
      heartbeatUrl: null,
    });
    expect(created.body.locations).to.deep.equal(['eu-west', 'us-east']);
    expect(created.body.publicId).to.match(/^[0-9a-f-]{36}$/);

    expect(() => WebsiteSchema.strict().parse(created.body)).not.to.throw();

    const byPublicId = await api('GET', `/api/websites/${created.body.publicId}`, { token });
    const byLegacyId = await api('GET', `/api/websites/${created.body.id}`, { token });
    expect(byPublicId.body).to.deep.equal(created.body);
    expect(byLegacyId.body).to.deep.equal(created.body);
  });

  it("lists a page with total, filters, and hides other organizations' websites (404)", async () => {
    const { token, customer } = await setup();
    for (let i = 0; i < 3; i++) await aWebsite().forCustomer(customer.id).named(`site ${i}`).create(token);
    await aWebsite().forCustomer(customer.id).named('paused one').paused().create(token);
    const page = await api('GET', '/api/websites', { token, query: { perPage: '2', page: '2' } });
    expect(page.status).to.equal(200);
    expect(page.body).to.include({ total: 4, page: 2, perPage: 2 });
    expect(page.body.items.map((w: any) => w.name)).to.deep.equal(['site 2', 'paused one']);
    const paused = await api('GET', '/api/websites', { token, query: { status: 'paused', search: 'PAUSED' } });
    expect(paused.body.items.map((w: any) => w.name)).to.deep.equal(['paused one']);
    expectError(await api('GET', '/api/websites', { token, query: { perPage: '' } }), 400, 'validationFailed');
    for (const item of page.body.items) expect(() => WebsiteSchema.strict().parse(item)).not.to.throw();
    const one = await api('GET', `/api/websites/${page.body.items[0].publicId}`, { token });
    expect(one.body).to.deep.equal(page.body.items[0]);

    const other = await anOrganization('other');
    const empty = await api('GET', '/api/websites', { token: other.token });
    expect(empty.body).to.include({ total: 0 });
    expectError(await api('GET', `/api/websites/${page.body.items[0].publicId}`, { token: other.token }), 404, 'websiteNotFound');
    expectError(
      await api('PATCH', `/api/websites/${page.body.items[0].publicId}`, { token: other.token, body: { name: 'x' } }),
      404,
      'websiteNotFound',
    );
    expectError(await api('DELETE', `/api/websites/${page.body.items[0].id}`, { token: other.token }), 404, 'websiteNotFound');
  });

  it('updates only the sent fields and deletes', async () => {
    const { token, customer } = await setup();
    const site = await aWebsite().forCustomer(customer.id).create(token);
    const patched = await api('PATCH', `/api/websites/${site.publicId}`, {
      token,
      body: { name: 'Renamed', status: 'paused', checkInterval: 15 },
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body).to.include({ name: 'Renamed', status: 'paused', checkInterval: 15, url: PUBLIC_URL });
    const removed = await api('DELETE', `/api/websites/${site.publicId}`, { token });
    expect(removed.body).to.deep.equal({ success: true });
    expectError(await api('GET', `/api/websites/${site.publicId}`, { token }), 404, 'websiteNotFound');
  });

  it('creates heartbeats with a service-issued token and ping URL, ignoring a sent token', async () => {
    const { token, customer } = await setup();
    const heartbeat = await aWebsite().forCustomer(customer.id).heartbeat(43200).with({ heartbeatToken: 'mine' }).create(token);
    expect(heartbeat.heartbeatToken).to.match(/^hb_[\w-]{40,}$/);
    expect(heartbeat.heartbeatUrl).to.equal(`http://api.test.example/api/heartbeats/${heartbeat.heartbeatToken}`);
    expect(heartbeat).to.include({ checkInterval: 43200, url: null, lastHeartbeatAt: null });
    const ping = await api('POST', `/api/heartbeats/${heartbeat.heartbeatToken}`);
    expect(ping.status).to.equal(200);
    expect(ping.body.ok).to.equal(true);
    const after = await api('GET', `/api/websites/${heartbeat.publicId}`, { token });
    expect(after.body.lastHeartbeatAt).to.equal(ping.body.receivedAt);
    expectError(await api('GET', '/api/heartbeats/hb_unknownunknownunknownunknown'), 404, 'websiteNotFound');
  });
});

describe('websites: alertRetryInterval (confirmation checks)', () => {
  it("inherits the customer's (default 20 s), takes its own, refuses under 10 s on both with the field named", async () => {
    const { token, customer } = await setup();
    const inherited = await aWebsite().forCustomer(customer.id).create(token);
    expect((await api('GET', `/api/websites/${inherited.publicId}`, { token })).body.alertRetryInterval).to.equal(20);

    const low = await api('PATCH', `/api/customers/${customer.id}`, { token, body: { alertRetryInterval: 9 } });
    expectError(low, 400, 'validationFailed');
    expect(low.body.data.issues.map((i: any) => i.path)).to.deep.equal([['alertRetryInterval']]);
    const patched = await api('PATCH', `/api/customers/${customer.id}`, { token, body: { alertRetryInterval: 45 } });
    expect(patched.status).to.equal(200);
    expect(patched.body.alertRetryInterval).to.equal(45);
    const created = await aWebsite().forCustomer(customer.id).create(token);
    expect(
      (await api('GET', `/api/websites/${created.publicId}`, { token })).body.alertRetryInterval,
      "a new monitor takes the customer's",
    ).to.equal(45);

    const own = await api('PATCH', `/api/websites/${created.publicId}`, { token, body: { alertRetryInterval: 10 } });
    expect(own.status, JSON.stringify(own.body)).to.equal(200);
    expect(own.body.alertRetryInterval).to.equal(10);
    const tooLow = await api('PATCH', `/api/websites/${created.publicId}`, { token, body: { alertRetryInterval: 5 } });
    expectError(tooLow, 400, 'validationFailed');
    expect(tooLow.body.data.issues.map((i: any) => i.path)).to.deep.equal([['alertRetryInterval']]);
    expect(
      (await api('GET', `/api/websites/${created.publicId}`, { token })).body.alertRetryInterval,
      'the refused change lost nothing',
    ).to.equal(10);
    const [row] = await (
      await testServer()
    ).database.sql.query<{ alert_retry_interval: number }>(
      sql`SELECT alert_retry_interval FROM monitors WHERE public_id = ${created.publicId}`,
    );
    expect(row!.alert_retry_interval, 'what the engine reads').to.equal(10);
  });
});

describe('websites: check interval, timeout and check configuration (website rules 1-3)', () => {
  it('POST: a too-high interval is a validation issue on checkInterval; below the package minimum, checkIntervalTooLow', async () => {
    const { token, customer } = await setup({ minCheckIntervalMinutes: 3 });
    const tooHigh = await api('POST', '/api/websites', { token, body: { customerId: customer.id, url: PUBLIC_URL, checkInterval: 1441 } });
    expectError(tooHigh, 400, 'validationFailed');
    expect(tooHigh.body.data.issues.map((i: any) => i.path)).to.deep.equal([['checkInterval']]);
    expectError(
      await api('POST', '/api/websites', { token, body: { customerId: customer.id, url: PUBLIC_URL, checkInterval: 2 } }),
      400,
      'checkIntervalTooLow',
    );
    const heartbeat = await api('POST', '/api/websites', { token, body: aWebsite().forCustomer(customer.id).heartbeat(43201).build() });
    expectError(heartbeat, 400, 'validationFailed');
    expect((await api('POST', '/api/websites', { token, body: aWebsite().forCustomer(customer.id).every(3).build() })).status).to.equal(
      201,
    );
  });

  it('PATCH: checkIntervalTooHigh against the sent type, else the stored one; invalidCheckInterval; invalidTimeout', async () => {
    const { token, customer } = await setup();
    const heartbeat = await aWebsite().forCustomer(customer.id).heartbeat(5000).create(token);
    const http = await aWebsite().forCustomer(customer.id).create(token);
    expect((await api('PATCH', `/api/websites/${heartbeat.publicId}`, { token, body: { checkInterval: 6000 } })).status).to.equal(200);
    expectError(
      await api('PATCH', `/api/websites/${heartbeat.publicId}`, { token, body: { monitoringType: 'http', url: PUBLIC_URL } }),
      400,
      'checkIntervalTooHigh',
    );
    expectError(
      await api('PATCH', `/api/websites/${http.publicId}`, { token, body: { checkInterval: 1441 } }),
      400,
      'checkIntervalTooHigh',
    );
    expectError(await api('PATCH', `/api/websites/${http.publicId}`, { token, body: { checkInterval: 0 } }), 400, 'invalidCheckInterval');
    expectError(
      await api('PATCH', `/api/websites/${http.publicId}`, { token, body: { checkInterval: 'ten' } }),
      400,
      'invalidCheckInterval',
    );
    expectError(await api('PATCH', `/api/websites/${http.publicId}`, { token, body: { timeoutSeconds: 61 } }), 400, 'invalidTimeout');
    expectError(await api('PATCH', `/api/websites/${http.publicId}`, { token, body: { timeoutSeconds: 0 } }), 400, 'invalidTimeout');
    const unchanged = await api('GET', `/api/websites/${http.publicId}`, { token });
    expect(unchanged.body).to.include({ checkInterval: 5, timeoutSeconds: 30 });
  });

  it('PATCH check-config answers the whole configuration; out-of-range fields answer invalidCheckConfig', async () => {
    const { token, customer } = await setup();
    const site = await aWebsite(token, { customerId: customer.id });
    const updated = await api('PATCH', `/api/websites/${site.id}/check-config`, {
      token,
      body: { maxPageSize: 1000, checkSizeEnabled: true, sslNoticeDays: 365 },
    });
    expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
    expect(updated.body).to.deep.equal({
      checkSslEnabled: true,
      checkHttpsRedirectEnabled: false,
      checkStatusEnabled: true,
      checkSizeEnabled: true,
      checkResponseTimeEnabled: false,
      checkKeywordEnabled: false,
      checkDomainExpiryEnabled: false,
      minPageSize: null,
      maxPageSize: 1000,
      sslNoticeDays: 365,
    });
    for (const body of [{ minPageSize: -1 }, { sslNoticeDays: 366 }, { minPageSize: 1001 }, { checkSslEnabled: 'yes' }]) {
      expectError(await api('PATCH', `/api/websites/${site.publicId}/check-config`, { token, body }), 400, 'invalidCheckConfig');
    }
    expectError(await api('PATCH', `/api/websites/${site.publicId}`, { token, body: { sslNoticeDays: 0 } }), 400, 'invalidCheckConfig');
    expectError(
      await api('PATCH', `/api/websites/${site.publicId}/check-config`, { token, body: { keyword: 'x' } }),
      400,
      'validationFailed',
    );
  });
});

describe('websites: public targets and connect fields (website rules 3-4)', () => {
  it('answers invalidUrl for non-public URLs in any spelling, and for names resolving to private addresses', async () => {
    const { token, customer } = await setup();
    for (const url of [
      'http://127.1/',
      'http://0x7f000001/',
      'http://[::ffff:10.0.0.1]/',
      'http://localhost./',
      'http://example.com@10.0.0.1/',
      'https://rebind.monitor-fixture.com/',
      'https://mixed.monitor-fixture.com/',
      'https://unknown.monitor-fixture.com/',
      'ftp://www.monitor-fixture.com/',
    ]) {
      expectError(await api('POST', '/api/websites', { token, body: { customerId: customer.id, url } }), 400, 'invalidUrl');
    }
    const site = await aWebsite(token, { customerId: customer.id });
    expectError(
      await api('PATCH', `/api/websites/${site.publicId}`, { token, body: { url: 'http://169.254.169.254/latest/' } }),
      400,
      'invalidUrl',
    );
    expectError(
      await api('PATCH', `/api/websites/${site.publicId}`, { token, body: { url: 'https://alias.monitor-fixture.com/' } }),
      400,
      'invalidUrl',
    );
    const moved = await api('PATCH', `/api/websites/${site.publicId}`, { token, body: { url: 'https://public.monitor-fixture.com/x' } });
    expect(moved.body.url).to.equal('https://public.monitor-fixture.com/x');
  });

  it('validates connectHost: connectHostInvalid, connectHostNotPublic, connectTlsInsecureWithoutHost', async () => {
    const { token, customer } = await setup();
    const base = { customerId: customer.id, url: PUBLIC_URL };
    for (const connectHost of [
      'https://origin.monitor-fixture.com',
      'origin.monitor-fixture.com/path',
      'origin monitor',
      '2606:4700::1',
      'origin.monitor-fixture.com:70000',
    ]) {
      expectError(await api('POST', '/api/websites', { token, body: { ...base, connectHost } }), 400, 'connectHostInvalid');
    }
    for (const connectHost of ['127.0.0.1:8443', '[::1]', 'localhost', 'rebind.monitor-fixture.com:443']) {
      expectError(await api('POST', '/api/websites', { token, body: { ...base, connectHost } }), 400, 'connectHostNotPublic');
    }
    expectError(
      await api('POST', '/api/websites', { token, body: { ...base, connectTlsInsecure: true } }),
      400,
      'connectTlsInsecureWithoutHost',
    );
    const site = await aWebsite(token, { ...base, connectHost: 'origin.monitor-fixture.com:8443', connectTlsInsecure: true });
    expect(site).to.include({ connectHost: 'origin.monitor-fixture.com:8443', connectPort: 8443, connectTlsInsecure: true });
    expectError(
      await api('PATCH', `/api/websites/${site.publicId}`, { token, body: { connectHost: '' } }),
      400,
      'connectTlsInsecureWithoutHost',
    );
    expectError(await api('PATCH', `/api/websites/${site.publicId}`, { token, body: { connectHost: 'a/b' } }), 400, 'connectHostInvalid');
    expectError(
      await api('PATCH', `/api/websites/${site.publicId}`, { token, body: { connectHost: '[fd00::1]:443' } }),
      400,
      'connectHostNotPublic',
    );
    const cleared = await api('PATCH', `/api/websites/${site.publicId}`, { token, body: { connectHost: null, connectTlsInsecure: false } });
    expect(cleared.body).to.include({ connectHost: null, connectPort: null, connectTlsInsecure: false });
  });

  it('accepts connect fields without effect on heartbeat and scripted-browser monitors', async () => {
    const { token, customer } = await setup();
    const heartbeat = await api('POST', '/api/websites', {
      token,
      body: { customerId: customer.id, monitoringType: 'heartbeat', connectHost: '10.0.0.1', connectTlsInsecure: true },
    });
    expect(heartbeat.status, JSON.stringify(heartbeat.body)).to.equal(201);
    const scripted = await api('POST', '/api/websites', {
      token,
      body: {
        customerId: customer.id,
        monitoringType: 'scripted_browser',
        url: PUBLIC_URL,
        script: 'expectText "ok"',
        connectTlsInsecure: true,
      },
    });
    expect(scripted.status, JSON.stringify(scripted.body)).to.equal(201);
    expect(scripted.body).to.include({ monitoringType: 'scripted_browser', script: 'expectText "ok"', connectTlsInsecure: true });
    expectError(
      await api('PATCH', `/api/websites/${heartbeat.body.publicId}`, { token, body: { monitoringType: 'http', url: PUBLIC_URL } }),
      400,
      'connectHostNotPublic',
    );
  });
});

describe('websites: the stored read model stays current', () => {
  it('stores the rendered record on write, and re-renders after tag changes or writes from elsewhere', async () => {
    const { token, customer } = await setup();
    const site = await aWebsite(token, { customerId: customer.id });
    const stored = await storedMonitor(site.publicId);
    expect(stored.document).to.be.a('string');
    expect(JSON.parse(stored.document)).to.deep.include({ publicId: site.publicId, name: site.name });

    const tag = await api('POST', '/api/tags', { token, body: { name: 'edge', color: '#3B82F6', customerId: customer.id } });
    await api('POST', '/api/monitor-tags', { token, body: { tagId: tag.body.id, monitorId: site.id, monitorType: 'website' } });
    await api('PATCH', `/api/tags/${tag.body.id}`, { token, body: { name: 'edge-eu' } });
    const listed = await api('GET', '/api/websites', { token });
    expect(listed.body.items[0].tags.map((t: any) => t.name)).to.deep.equal(['edge-eu']);
    expect((await storedMonitor(site.publicId)).document).to.include('edge-eu');

    const { database } = await testServer();
    await database.sql.query(sql`UPDATE monitors SET name = ${'Renamed elsewhere'} WHERE public_id = ${site.publicId}`);
    expect((await storedMonitor(site.publicId)).document).to.equal(null);
    expect((await api('GET', `/api/websites/${site.publicId}`, { token })).body.name).to.equal('Renamed elsewhere');
    expect((await api('GET', '/api/websites', { token })).body.items[0].name).to.equal('Renamed elsewhere');

    await api('DELETE', `/api/tags/${tag.body.id}`, { token });
    expect((await api('GET', `/api/websites/${site.publicId}`, { token })).body.tags).to.deep.equal([]);
  });
});

describe('websites: compact JSON from the one record definition', () => {
  const { publicBaseUrl } = testConfig();

  /** The record the presenter makes of the stored row, with the ping URL the host answers. */
  async function presented(publicId: string) {
    const { database } = await testServer();
    const [row] = await database.sql.query(
      sql`SELECT ${raw(MONITOR_COLUMNS)} FROM monitors m JOIN customers c ON c.id = m.customer_id WHERE m.public_id = ${publicId}`,
    );
    const item = toItem(row!);
    const record = websiteRecord(item);
    return {
      ...record,
      heartbeatUrl: record.heartbeatUrl === null ? null : `${publicBaseUrl}${record.heartbeatUrl}`,
      currentState: currentStateRecord(item.currentState),
    };
  }

  /** The bytes are JSON.stringify's: no `"id" : 1`, no `[1, 2]`, nothing to compact. */
  function expectCompact(response: ApiResponse) {
    expect(response.headers.get('content-type')).to.match(/^application\/json/);
    expect(response.text).not.to.include('" : ');
    expect(response.text).to.equal(JSON.stringify(JSON.parse(response.text)));
  }

  it('answers every website read and write as compact JSON equal to the presented record, stored or rendered on read', async () => {
    const { token, customer } = await setup();
    const created = await api('POST', '/api/websites', {
      token,
      body: {
        customerId: customer.id,
        url: PUBLIC_URL,
        name: 'Shop, "main"',
        headers: { 'x-probe': 'a : b', accept: 'text/html' },
        expectedStatusCodes: [200, 204],
      },
    });
    expect(created.status, created.text).to.equal(201);
    const heartbeat = await api('POST', '/api/websites', {
      token,
      body: { customerId: customer.id, monitoringType: 'heartbeat', name: 'Nightly' },
    });
    const tag = await api('POST', '/api/tags', { token, body: { name: 'edge', color: '#3B82F6', customerId: customer.id } });
    for (const site of [created, heartbeat]) {
      await api('POST', '/api/monitor-tags', {
        token,
        body: { tagId: tag.body.id, monitorId: site.body.publicId, monitorType: 'website' },
      });
    }
    const patched = await api('PATCH', `/api/websites/${created.body.publicId}`, { token, body: { keyword: 'ok' } });
    const one = await api('GET', `/api/websites/${heartbeat.body.publicId}`, { token });
    const list = await api('GET', '/api/websites', { token });
    for (const response of [created, heartbeat, patched, one, list]) expectCompact(response);
    expect(JSON.parse(patched.text)).to.deep.equal(await presented(created.body.publicId));
    expect(JSON.parse(one.text)).to.deep.equal(await presented(heartbeat.body.publicId));
    expect(one.body.heartbeatUrl).to.equal(`${publicBaseUrl}/api/heartbeats/${heartbeat.body.heartbeatToken}`);
    expect(JSON.parse(list.text)).to.deep.equal({
      items: [await presented(created.body.publicId), await presented(heartbeat.body.publicId)],
      total: 2,
      page: 1,
      perPage: list.body.perPage,
    });

    // A write from elsewhere marks the stored records stale: reads render them from their rows, to the same bytes.
    const app = await testServer();
    const { database } = app;
    await database.sql.query(sql`UPDATE monitors SET name = name WHERE customer_id = ${customer.id}`);
    expect((await storedMonitor(heartbeat.body.publicId)).document).to.equal(null);
    expect((await api('GET', `/api/websites/${heartbeat.body.publicId}`, { token })).text).to.equal(one.text);
    expect((await api('GET', '/api/websites', { token })).text).to.equal(list.text);
    // The host renders stale records again at start, as writes store them.
    expect(await renderStaleWebsiteDocuments(app.container.get<TransactionRunner>(TRANSACTION_RUNNER), 1)).to.be.at.least(2);
    expect((await storedMonitor(heartbeat.body.publicId)).document).to.be.a('string');
    expect((await api('GET', '/api/websites', { token })).text).to.equal(list.text);
  });

  it('answers per-kind monitors as compact JSON', async () => {
    const { token, customer } = await setup();
    const created = await api('POST', '/api/monitors/dns', { token, body: { customerId: customer.id, hostname: 'monitor-fixture.com' } });
    expect(created.status, created.text).to.equal(201);
    for (const response of [
      created,
      await api('GET', `/api/monitors/dns/${created.body.publicId}`, { token }),
      await api('GET', '/api/monitors/dns', { token }),
    ]) {
      expectCompact(response);
    }
  });
});
