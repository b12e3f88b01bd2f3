import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet } from '../../../support/callers';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, record, type MonitorRow } from '../../../support/results-fixtures';
import { testClock } from '../../../support/test-clock';
import { testServer } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { EXPORT_RESOURCES } from '../../../../src/infrastructure/data-export/zip-export-archive-writer';

const MINUTE = 60_000;
const FIELDS = [
  'id',
  'name',
  'target',
  'window',
  'timezone',
  'customerId',
  'subject',
  'alertsEnabled',
  'burnState',
  'burnChangedAt',
  'createdAt',
  'updatedAt',
];

const anObjective = (subject: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'Checkout',
  target: 99.9,
  subject,
  ...extra,
});

/** Results a minute apart from `start`: `status(m)` of minute m, or no result when it answers null. */
async function minutes(monitor: MonitorRow, start: Date, count: number, status: (m: number) => 'up' | 'down' | null) {
  for (let m = 0; m < count; m += 1) {
    const s = status(m);
    if (s !== null) await record(monitor, 'eu', aResult(s, new Date(start.getTime() + m * MINUTE)));
  }
}

async function aTag(organizationId: number, customerId: number, monitorIds: number[]): Promise<number> {
  const { database } = await testServer();
  const [tag] = await database.sql.query<{ id: number }>(
    sql`INSERT INTO tags (public_id, organization_id, customer_id, name, color, created_at, updated_at)
        VALUES (${randomUUID()}, ${organizationId}, ${customerId}, ${`critical-${randomUUID().slice(0, 8)}`}, '#EF4444', now(), now()) RETURNING id`,
  );
  for (const monitorId of monitorIds)
    await database.sql.query(sql`INSERT INTO monitor_tags (monitor_id, tag_id) VALUES (${monitorId}, ${tag!.id})`);
  return Number(tag!.id);
}

describe('service level objectives (HTTP)', () => {
  it('creates, reads, lists, changes and deletes an objective, audited', async () => {
    const org = await anOrganization('slo');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId);
    const created = await api('POST', '/api/service-levels', {
      token: org.token,
      body: anObjective({ type: 'website', websiteId: monitor.publicId }),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.have.all.keys(...FIELDS);
    expect(created.body).to.deep.include({
      name: 'Checkout',
      target: 99.9,
      window: 'rolling30d',
      timezone: 'UTC',
      customerId,
      subject: { type: 'website', websiteId: monitor.publicId },
      alertsEnabled: true,
      burnState: 'ok',
      burnChangedAt: null,
    });
    const id = created.body.id;
    expect((await api('GET', `/api/service-levels/${id}`, { token: org.token })).body).to.deep.equal(created.body);

    const changed = await api('PATCH', `/api/service-levels/${id}`, {
      token: org.token,
      body: {
        target: 99.5,
        window: 'calendarMonth',
        timezone: 'Europe/Berlin',
        subject: { type: 'customer', customerId: String(customerId) },
      },
    });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.deep.include({ target: 99.5, window: 'calendarMonth', timezone: 'Europe/Berlin' });
    expect(changed.body.subject).to.deep.equal({ type: 'customer', customerId, tagId: null });
    const list = await api('GET', '/api/service-levels', { token: org.token });
    expect(list.body.items.map((o: { id: string }) => o.id)).to.deep.equal([id]);
    expect(list.body.items[0]).to.deep.equal(changed.body);

    const audit = await api('GET', '/api/audit-log', { token: org.token, query: { resourceType: 'serviceLevelObjective' } });
    expect(audit.status, JSON.stringify(audit.body)).to.equal(200);
    expect(audit.body.items.map((e: { action: string }) => e.action)).to.include.members(['created', 'updated']);

    // The data export carries the organization's objectives, and no other organization's.
    const stranger = await anOrganization('slo-other');
    const theirs = await aMonitorRow(stranger.user.organizationId, await aCustomerRow(stranger.user.organizationId));
    await api('POST', '/api/service-levels', { token: stranger.token, body: anObjective({ type: 'website', websiteId: theirs.publicId }) });
    const exported = EXPORT_RESOURCES.find((r) => r.name === 'service-level-objectives')!;
    const { database } = await testServer();
    const page = await exported.page(database.sql, org.user.organizationId, null, 100);
    expect(page.rows.map((r) => (r as { public_id: string }).public_id)).to.deep.equal([id]);
    expect(await exported.count(database.sql, org.user.organizationId)).to.equal(1);

    const deleted = await api('DELETE', `/api/service-levels/${id}`, { token: org.token });
    expect(deleted.body).to.deep.equal({ success: true, id });
    expectError(await api('GET', `/api/service-levels/${id}`, { token: org.token }), 404, 'serviceLevelObjectiveNotFound');
  });

  it('answers bad input with the envelope: shape, target, subject', async () => {
    const org = await anOrganization('slo');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId);
    const post = (body: Record<string, unknown>) => api('POST', '/api/service-levels', { token: org.token, body });
    const website = { type: 'website', websiteId: monitor.publicId };
    expectError(await post(anObjective(website, { target: 100 })), 400, 'validationFailed');
    expectError(await post(anObjective(website, { target: 49 })), 400, 'validationFailed');
    expectError(await post(anObjective(website, { window: 'rolling1d' })), 400, 'validationFailed');
    expectError(await post(anObjective(website, { timezone: 'Mars/Olympus' })), 400, 'validationFailed');
    expectError(await post(anObjective(website, { owner: 'me' })), 400, 'validationFailed');
    const decimals = await post(anObjective(website, { target: 99.9985 }));
    expectError(decimals, 400, 'invalidServiceLevelObjective');
    expect(decimals.body.data).to.deep.include({ code: 'invalidServiceLevelObjective', field: '/target' });
    expectError(await post(anObjective({ type: 'website', websiteId: randomUUID() })), 404, 'websiteNotFound');
    expectError(await post(anObjective({ type: 'customer', customerId: '999999999' })), 404, 'customerNotFound');
    expectError(await post(anObjective({ type: 'customer', customerId: String(customerId), tagId: '999999999' })), 404, 'tagNotFound');
  });

  it("keeps customers apart: a customer's callers see and touch only their customer's objectives; readers cannot write", async () => {
    const set = await aCallerSet();
    const mine = await aMonitorRow(set.organizationId, set.customer.id);
    const theirs = await aMonitorRow(set.organizationId, set.otherCustomer.id);
    const own = await api('POST', '/api/service-levels', {
      token: set.customerUser,
      body: anObjective({ type: 'website', websiteId: mine.publicId }),
    });
    expect(own.status, JSON.stringify(own.body)).to.equal(201);
    const other = await api('POST', '/api/service-levels', {
      token: set.admin,
      body: anObjective({ type: 'website', websiteId: theirs.publicId }),
    });
    expect(other.status).to.equal(201);
    expectError(
      await api('POST', '/api/service-levels', {
        token: set.customerUser,
        body: anObjective({ type: 'website', websiteId: theirs.publicId }),
      }),
      404,
      'websiteNotFound',
    );
    expectError(
      await api('POST', '/api/service-levels', {
        token: set.customerUser,
        body: anObjective({ type: 'customer', customerId: String(set.otherCustomer.id) }),
      }),
      404,
      'customerNotFound',
    );
    const seen = await api('GET', '/api/service-levels', { token: set.customerToken });
    expect(seen.body.items.map((o: { id: string }) => o.id)).to.deep.equal([own.body.id]);
    for (const [method, path] of [
      ['GET', `/api/service-levels/${other.body.id}`],
      ['GET', `/api/service-levels/${other.body.id}/status`],
      ['PATCH', `/api/service-levels/${other.body.id}`],
      ['DELETE', `/api/service-levels/${other.body.id}`],
    ] as const)
      expectError(
        await api(method, path, { token: set.customerUser, body: method === 'PATCH' ? { name: 'x' } : undefined }),
        404,
        'serviceLevelObjectiveNotFound',
      );
    expectError(await api('GET', `/api/service-levels/${own.body.id}`, { token: set.stranger }), 404, 'serviceLevelObjectiveNotFound');
    expectError(
      await api('PATCH', `/api/service-levels/${own.body.id}`, { token: set.readonly, body: { name: 'x' } }),
      403,
      'roleForbidden',
    );
    expect((await api('GET', `/api/service-levels/${own.body.id}`, { token: set.readonly })).status).to.equal(200);
  });

  it('measures attainment from the recorded results: maintenance left out, unknown time apart, as the uptime figures count it', async () => {
    const org = await anOrganization('slo');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { consecutiveChecks: 1000 });
    const start = new Date(Math.floor((testClock.now().getTime() - 4 * 60 * MINUTE) / MINUTE) * MINUTE);
    // 120 min up, 30 min down, 20 min without results, 10 min up; then nothing (about an hour before now).
    await minutes(monitor, start, 180, (m) => (m < 120 ? 'up' : m < 150 ? 'down' : m < 170 ? null : 'up'));
    const maintenance = await api('POST', '/api/maintenance-windows', {
      token: org.token,
      body: {
        title: 'Migration',
        startTime: new Date(start.getTime() + 120 * MINUTE).toISOString(),
        endTime: new Date(start.getTime() + 135 * MINUTE).toISOString(),
        excludeFromUptime: true,
        targets: [{ type: 'website', id: monitor.publicId }],
      },
    });
    expect(maintenance.status).to.equal(201);
    const objective = await api('POST', '/api/service-levels', {
      token: org.token,
      body: anObjective({ type: 'website', websiteId: monitor.publicId }, { target: 99, window: 'rolling7d' }),
    });
    const status = await api('GET', `/api/service-levels/${objective.body.id}/status`, { token: org.token });
    expect(status.status, JSON.stringify(status.body)).to.equal(200);
    // Each result stands a minute, the last before a gap 120 s (its cap at a 60-s interval): up 7,200 + 660 s, down
    // 1,860 s less the 900 s of maintenance.
    const good = 7200 + 660;
    const bad = 960;
    expect(status.body.attainmentPercent).to.equal(Number(((good / (good + bad)) * 100).toFixed(4)));
    expect(status.body.met).to.equal(false);
    expect(status.body.maintenanceMinutes).to.equal(15);
    expect(status.body.monitors).to.equal(1);
    expect(status.body.budget.spentMinutes).to.equal(16);
    expect(status.body.budget.totalMinutes).to.equal(Number(((0.01 * (good + bad)) / 60).toFixed(2)));
    expect(status.body.budget.leftPercent).to.be.lessThan(0);
    // Nothing known in the last 30 minutes; the last 6 hours hold every result.
    expect(status.body.burnRates).to.deep.include({ '5m': null, '30m': null, '6h': Number((bad / (good + bad) / 0.01).toFixed(2)) });
    expect(status.body.firing).to.deep.equal([]);

    const uptime = await api('GET', `/api/websites/${monitor.publicId}/uptime-stats`, {
      token: org.token,
      query: { from: new Date(testClock.now().getTime() - 7 * 24 * 60 * MINUTE).toISOString(), to: testClock.now().toISOString() },
    });
    expect(uptime.body).to.deep.include({ upSeconds: good, downSeconds: bad });
    // Unknown: 18 minutes of the gap and the time since the last result's 120 s, the same in both (a second apart at most).
    expect(status.body.unknownMinutes).to.be.closeTo(uptime.body.unknownSeconds / 60, 0.1);
    expect(status.body.unknownMinutes).to.be.greaterThan(18 + 57);
  });

  it("covers a customer's monitors, or only those with a tag", async () => {
    const org = await anOrganization('slo');
    const customerId = await aCustomerRow(org.user.organizationId);
    const healthy = await aMonitorRow(org.user.organizationId, customerId, { consecutiveChecks: 1000 });
    const failing = await aMonitorRow(org.user.organizationId, customerId, { consecutiveChecks: 1000 });
    const start = new Date(Math.floor((testClock.now().getTime() - 3 * 60 * MINUTE) / MINUTE) * MINUTE);
    await minutes(healthy, start, 30, () => 'up');
    await minutes(failing, start, 30, (m) => (m < 15 ? 'up' : 'down'));
    const tagId = await aTag(org.user.organizationId, customerId, [healthy.id]);
    const statusOf = async (subject: Record<string, unknown>) => {
      const created = await api('POST', '/api/service-levels', { token: org.token, body: anObjective(subject, { target: 99 }) });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      return (await api('GET', `/api/service-levels/${created.body.id}/status`, { token: org.token })).body;
    };
    const all = await statusOf({ type: 'customer', customerId: String(customerId) });
    // Good: 29 min + 120 s of one, 15 min of the other; bad: 14 min + 120 s.
    const good = 29 * 60 + 120 + 15 * 60;
    const bad = 14 * 60 + 120;
    expect(all.monitors).to.equal(2);
    expect(all.attainmentPercent).to.equal(Number(((good / (good + bad)) * 100).toFixed(4)));
    expect(all.budget.spentMinutes).to.equal(Number((bad / 2 / 60).toFixed(2)));
    const tagged = await statusOf({ type: 'customer', customerId: String(customerId), tagId: String(tagId) });
    expect(tagged).to.deep.include({ monitors: 1, attainmentPercent: 100, met: true });
  });
});
