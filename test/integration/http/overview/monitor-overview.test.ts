import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow, aCustomerToken } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, clearOfRollups, record } from '../../../support/results-fixtures';
import { testClock } from '../../../support/test-clock';
import { testServer } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { OverviewItemSchema } from '../../../../src/interfaces/http/overview/overview.router';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Item {
  publicId: string;
  name: string;
  state: string;
  customerName: string;
  inMaintenance: boolean;
  currentState: { status: string; reason: string | null };
  lastCheck: { status: string; checkedAt: string; responseTimeMs: number | null } | null;
}

/** An organization with two customers and a monitor in each overview state. */
async function aMonitoredOrganization() {
  const org = await anOrganization();
  const organizationId = org.user.organizationId;
  const acme = await aCustomerRow(organizationId, 'Acme');
  const globex = await aCustomerRow(organizationId, 'Globex');
  const at = (minutesAgo: number) => new Date(testClock.now().getTime() - minutesAgo * MINUTE);
  const down = await aMonitorRow(organizationId, acme, { name: 'Down shop' });
  const lastDownAt = at(2);
  await record(down, 'eu', aResult('down', at(3)));
  await record(down, 'eu', aResult('down', lastDownAt));
  const up = await aMonitorRow(organizationId, acme, { name: 'Up shop' });
  await record(up, 'eu', aResult('up', at(2), { timings: { dnsMs: 1, connectMs: 2, tlsMs: 3, firstByteMs: 40, totalMs: 87 } }));
  const degraded = await aMonitorRow(organizationId, globex, { name: 'Slow shop' });
  await record(degraded, 'eu', aResult('degraded', at(2)));
  const silent = await aMonitorRow(organizationId, globex, { name: 'New shop' });
  const paused = await aMonitorRow(organizationId, globex, { name: 'Paused shop' });
  const { database } = await testServer();
  await database.sql.query(sql`UPDATE monitors SET status = 'paused' WHERE id = ${paused.id}`);
  const maintained = await aMonitorRow(organizationId, acme, { name: 'Maintained shop' });
  await record(maintained, 'eu', aResult('up', at(2)));
  const window = await api('POST', '/api/maintenance-windows', {
    token: org.token,
    body: {
      title: 'Upgrade',
      startTime: at(10).toISOString(),
      endTime: new Date(testClock.now().getTime() + HOUR).toISOString(),
      timezone: 'UTC',
      targets: [{ type: 'website', id: maintained.publicId }],
    },
  });
  expect(window.status, JSON.stringify(window.body)).to.equal(201);
  return { org, acme, globex, lastDownAt, monitors: { down, up, degraded, silent, paused, maintained } };
}

describe('GET /api/monitor-overview', () => {
  it('lists every monitor of the scope with the state an overview shows and its newest result', async () => {
    const { org, monitors, lastDownAt } = await aMonitoredOrganization();
    const response = await api('GET', '/api/monitor-overview', { token: org.token });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body).to.include({ total: 6, page: 1, perPage: 500 });
    const byName = new Map((response.body.items as Item[]).map((item) => [item.name, item]));
    expect(Object.fromEntries([...byName].map(([name, item]) => [name, item.state]))).to.deep.equal({
      'Down shop': 'down',
      'Up shop': 'up',
      'Slow shop': 'degraded',
      'New shop': 'unknown',
      'Paused shop': 'paused',
      'Maintained shop': 'maintenance',
    });
    expect(byName.get('New shop')!.currentState).to.include({ status: 'unknown', reason: 'noResults' });
    expect(byName.get('New shop')!.lastCheck).to.equal(null);
    expect(byName.get('Maintained shop')!.inMaintenance).to.equal(true);
    expect(byName.get('Up shop')!.lastCheck).to.deep.include({ status: 'up', responseTimeMs: 87 });
    expect(byName.get('Down shop')!.lastCheck!.checkedAt).to.equal(lastDownAt.toISOString());
    expect(byName.get('Up shop')).to.include({ publicId: monitors.up.publicId, customerName: 'Acme' });
    // Written partly by PostgreSQL, partly by the use case: every item is the documented shape, field for field.
    for (const item of response.body.items as object[]) {
      expect(Object.keys(item).sort()).to.deep.equal(Object.keys(OverviewItemSchema.shape).sort());
      expect(OverviewItemSchema.parse(item)).to.deep.equal(item);
    }
  });

  it('writes names, addresses and tags as given (quotes, backslashes, markup, any script), with its tags in name order', async () => {
    const org = await anOrganization();
    const organizationId = org.user.organizationId;
    const customer = await aCustomerRow(organizationId, 'Ünïcode "Ltd" \\ <b>');
    const name = 'Shop "quoted" \\ back\\slash </script><b>bold</b> 東京 ✓\n line';
    const monitor = await aMonitorRow(organizationId, customer, { name });
    const { database } = await testServer();
    const tag = async (tagName: string, color: string) => {
      const [row] = await database.sql.query<{ id: number }>(
        sql`INSERT INTO tags (public_id, organization_id, customer_id, name, color, created_at, updated_at)
            VALUES (gen_random_uuid(), ${organizationId}, ${customer}, ${tagName}, ${color}, now(), now()) RETURNING id`,
      );
      await database.sql.query(sql`INSERT INTO monitor_tags (monitor_id, tag_id) VALUES (${monitor.id}, ${row!.id})`);
    };
    await tag('zeta "z"', '#ff0000');
    await tag('Alpha', '#00ff00');
    await database.sql.query(sql`UPDATE monitors SET url = ${'https://example.com/a?b="c"&d=\\e'} WHERE id = ${monitor.id}`);
    const response = await api('GET', '/api/monitor-overview', { token: org.token });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const [item] = response.body.items as Array<Item & { tags: Array<{ name: string; color: string }>; target: string }>;
    expect(item!.name).to.equal(name);
    expect(item!.customerName).to.equal('Ünïcode "Ltd" \\ <b>');
    expect(item!.target).to.equal('https://example.com/a?b="c"&d=\\e');
    expect(item!.tags.map((t) => [t.name, t.color])).to.deep.equal([
      ['Alpha', '#00ff00'],
      ['zeta "z"', '#ff0000'],
    ]);
    expect(OverviewItemSchema.parse(item)).to.deep.equal(item);
  });

  it('pages, narrows to a customer, and keeps a customer-scoped caller to its customer', async () => {
    const { org, globex } = await aMonitoredOrganization();
    const first = await api('GET', '/api/monitor-overview', { token: org.token, query: { perPage: '4' } });
    const second = await api('GET', '/api/monitor-overview', { token: org.token, query: { perPage: '4', page: '2' } });
    expect(first.body.items).to.have.length(4);
    expect(second.body.items).to.have.length(2);
    expect(second.body.total).to.equal(6);
    const names = (list: Item[]) => list.map((i) => i.name).sort();
    const narrowed = await api('GET', '/api/monitor-overview', { token: org.token, query: { customerId: String(globex) } });
    expect(names(narrowed.body.items)).to.deep.equal(['New shop', 'Paused shop', 'Slow shop']);
    const customerToken = await aCustomerToken(org.token, globex);
    const scoped = await api('GET', '/api/monitor-overview', { token: customerToken });
    expect(names(scoped.body.items)).to.deep.equal(['New shop', 'Paused shop', 'Slow shop']);
    expect(scoped.body.total).to.equal(3);
  });

  it('answers customerNotFound for a customer outside the scope, and 400 for a bad page', async () => {
    const { org, acme, globex } = await aMonitoredOrganization();
    const stranger = await anOrganization('stranger');
    expectError(
      await api('GET', '/api/monitor-overview', { token: stranger.token, query: { customerId: String(acme) } }),
      404,
      'customerNotFound',
    );
    const customerToken = await aCustomerToken(org.token, globex);
    expectError(
      await api('GET', '/api/monitor-overview', { token: customerToken, query: { customerId: String(acme) } }),
      404,
      'customerNotFound',
    );
    expectError(await api('GET', '/api/monitor-overview', { token: org.token, query: { customerId: 'nope' } }), 404, 'customerNotFound');
    expectError(await api('GET', '/api/monitor-overview', { token: org.token, query: { perPage: '1001' } }), 400, 'validationFailed');
    expectError(await api('GET', '/api/monitor-overview', { token: org.token, query: { page: '' } }), 400, 'validationFailed');
    expect((await api('GET', '/api/monitor-overview')).status).to.equal(401);
  });
});

describe('POST /api/monitor-overview/uptime-bars', () => {
  it('tells each hour of the last day as shares of the checked time, oldest first', async () => {
    const org = await anOrganization();
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { consecutiveChecks: 10 });
    await clearOfRollups(3 * 3_600_000);
    const hourStart = Math.floor(testClock.now().getTime() / HOUR) * HOUR - HOUR;
    const statuses = ['up', 'up', 'up', 'down'] as const;
    for (const [i, status] of statuses.entries()) await record(monitor, 'eu', aResult(status, new Date(hourStart + (30 + i) * MINUTE)));
    const response = await api('POST', '/api/monitor-overview/uptime-bars', {
      token: org.token,
      body: { monitorIds: [monitor.publicId, String(monitor.id), '00000000-0000-4000-8000-000000000000'] },
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body.notFound).to.deep.equal(['00000000-0000-4000-8000-000000000000']);
    const [bar, byLegacyId] = response.body.bars;
    expect(bar.monitorId).to.equal(monitor.publicId);
    expect(byLegacyId.buckets).to.deep.equal(bar.buckets);
    expect(bar.buckets).to.have.length(24);
    expect(bar.buckets[22]).to.deep.equal({ start: new Date(hourStart).toISOString(), up: 0.75, degraded: 0, down: 0.25 });
    expect(bar.buckets[23]).to.include({ up: null, down: null });
    expect(bar.buckets[0].start).to.equal(new Date(hourStart - 22 * HOUR).toISOString());

    const days = await api('POST', '/api/monitor-overview/uptime-bars', {
      token: org.token,
      body: { monitorIds: [monitor.publicId], span: '90d' },
    });
    expect(days.body.bars[0].buckets).to.have.length(90);
    const dayOf = (t: number) => new Date(Math.floor(t / 86_400_000) * 86_400_000).toISOString();
    const day = days.body.bars[0].buckets.find((b: { start: string }) => b.start === dayOf(hourStart));
    expect(day).to.deep.include({ up: 0.75, down: 0.25 });
  });

  it("lists another organization's monitors as not found and refuses a malformed request", async () => {
    const org = await anOrganization();
    const stranger = await anOrganization('stranger');
    const monitor = await aMonitorRow(org.user.organizationId, await aCustomerRow(org.user.organizationId));
    const response = await api('POST', '/api/monitor-overview/uptime-bars', {
      token: stranger.token,
      body: { monitorIds: [monitor.publicId] },
    });
    expect(response.body).to.deep.equal({ bars: [], notFound: [monitor.publicId] });
    const tooMany = Array.from({ length: 201 }, (_, i) => String(i + 1));
    expectError(
      await api('POST', '/api/monitor-overview/uptime-bars', { token: org.token, body: { monitorIds: tooMany } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('POST', '/api/monitor-overview/uptime-bars', { token: org.token, body: { monitorIds: [monitor.publicId], span: '1y' } }),
      400,
      'validationFailed',
    );
  });
});
