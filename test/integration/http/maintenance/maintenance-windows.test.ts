import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow, aCustomerToken } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, record } from '../../../support/results-fixtures';
import { aDomain, anIp } from '../../../support/tenancy-fixtures';
import { testClock } from '../../../support/test-clock';
import { testServer } from '../../../support/test-server';
import { AssetMaintenance } from '../../../../src/application/maintenance/asset-maintenance';
import { MAINTENANCE_WINDOWS, type MaintenanceWindows } from '../../../../src/application/incidents/ports';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const HOUR = 3600_000;
const WINDOW_FIELDS = [
  'id',
  // design: the client's stable key (monitoring as code) and the customer the window belongs to
  'key',
  'customerId',
  'title',
  'description',
  'startTime',
  'endTime',
  'timezone',
  'rrule',
  'durationMinutes',
  'targets',
  'suppressAlerts',
  'excludeFromUptime',
  'status',
  'currentOccurrence',
  'nextOccurrence',
  'createdAt',
  'updatedAt',
];

async function anOrgWithMonitor() {
  const org = await anOrganization('maintenance');
  const customerId = await aCustomerRow(org.user.organizationId);
  const monitor = await aMonitorRow(org.user.organizationId, customerId);
  return { org, customerId, monitor };
}

const later = (hours: number) => new Date(testClock.now().getTime() + hours * HOUR).toISOString();

async function outboxKinds(organizationId: number): Promise<string[]> {
  const { database } = await testServer();
  const rows = await database.sql.query<{ kind: string }>(
    sql`SELECT kind FROM notification_outbox WHERE organization_id = ${organizationId} AND kind LIKE 'maintenance.%' ORDER BY id`,
  );
  return rows.map((r) => r.kind);
}

describe('Maintenance windows API', () => {
  it('answers durationMinutes in whole minutes (a window of 9 min 40 s lasts 10), the exact length in its times', async () => {
    const { org, monitor } = await anOrgWithMonitor();
    const start = later(3);
    const body = {
      title: 'Short',
      startTime: start,
      endTime: new Date(Date.parse(start) + 9 * 60_000 + 40_000).toISOString(),
      targets: [{ type: 'website', id: monitor.publicId }],
    };
    const created = await api('POST', '/api/maintenance-windows', { token: org.token, body });
    expect(created.status, JSON.stringify(created.body)).to.be.oneOf([200, 201]);
    expect(created.body.durationMinutes).to.equal(10);
    expect(Date.parse(created.body.endTime) - Date.parse(created.body.startTime)).to.equal(580_000);
  });

  it('creates a window, reads it back, lists it by website, and answers an equal create with the same window, announced once', async () => {
    const { org, monitor } = await anOrgWithMonitor();
    const start = later(2); // one reading of the clock, so the window is exactly two hours long
    const body = {
      title: 'Database upgrade',
      description: 'Primary failover',
      startTime: start,
      endTime: new Date(Date.parse(start) + 2 * HOUR).toISOString(),
      timezone: 'Europe/Berlin',
      targets: [{ type: 'website', id: monitor.publicId }],
    };
    const created = await api('POST', '/api/maintenance-windows', { token: org.token, body });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.have.all.keys(WINDOW_FIELDS);
    expect(created.body).to.deep.include({
      title: 'Database upgrade',
      description: 'Primary failover',
      startTime: body.startTime,
      endTime: body.endTime,
      timezone: 'Europe/Berlin',
      rrule: null,
      durationMinutes: 120,
      targets: [{ type: 'website', id: monitor.publicId }],
      suppressAlerts: true,
      excludeFromUptime: false,
      status: 'scheduled',
      currentOccurrence: null,
      nextOccurrence: { startTime: body.startTime, endTime: body.endTime },
    });

    const again = await api('POST', '/api/maintenance-windows', { token: org.token, body });
    expect(again.status).to.equal(201);
    expect(again.body.id).to.equal(created.body.id);
    expect(await outboxKinds(org.user.organizationId)).to.deep.equal(['maintenance.scheduled']);

    const read = await api('GET', `/api/maintenance-windows/${created.body.id}`, { token: org.token });
    expect(read.body).to.deep.equal(created.body);
    const byWebsite = await api('GET', '/api/maintenance-windows', { token: org.token, query: { websiteId: monitor.publicId } });
    expect(byWebsite.body.items.map((w: { id: string }) => w.id)).to.deep.equal([created.body.id]);
    const other = await aMonitorRow(org.user.organizationId, monitor.customerId);
    expect(
      (await api('GET', '/api/maintenance-windows', { token: org.token, query: { websiteId: other.publicId } })).body.items,
    ).to.deep.equal([]);
  });

  it('creates one window when equal creates race each other', async () => {
    const { org, monitor } = await anOrgWithMonitor();
    const body = { title: 'Retry storm', startTime: later(2), endTime: later(3), targets: [{ type: 'website', id: monitor.publicId }] };
    const answers = await Promise.all([0, 1, 2, 3].map(() => api('POST', '/api/maintenance-windows', { token: org.token, body })));
    expect(answers.map((a) => a.status)).to.deep.equal([201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).to.equal(1);
    expect((await api('GET', '/api/maintenance-windows', { token: org.token })).body.items).to.have.length(1);
    expect(await outboxKinds(org.user.organizationId)).to.deep.equal(['maintenance.scheduled']);
  });

  it('changes a window with PATCH and deletes it; another organization gets maintenanceWindowNotFound for each', async () => {
    const { org, monitor } = await anOrgWithMonitor();
    const created = await api('POST', '/api/maintenance-windows', {
      token: org.token,
      body: { title: 'Patch day', startTime: later(1), endTime: later(2), targets: [{ type: 'monitor', id: String(monitor.id) }] },
    });
    const id = created.body.id;
    const stranger = await anOrganization('stranger');
    expectError(await api('GET', `/api/maintenance-windows/${id}`, { token: stranger.token }), 404, 'maintenanceWindowNotFound');
    expectError(
      await api('PATCH', `/api/maintenance-windows/${id}`, { token: stranger.token, body: { title: 'x' } }),
      404,
      'maintenanceWindowNotFound',
    );
    expectError(await api('DELETE', `/api/maintenance-windows/${id}`, { token: stranger.token }), 404, 'maintenanceWindowNotFound');

    const patched = await api('PATCH', `/api/maintenance-windows/${id}`, {
      token: org.token,
      body: { title: 'Weekly patch day', rrule: 'FREQ=WEEKLY', excludeFromUptime: true },
    });
    expect(patched.status).to.equal(200);
    expect(patched.body).to.include({ title: 'Weekly patch day', rrule: 'FREQ=WEEKLY', excludeFromUptime: true });
    expectError(
      await api('PATCH', `/api/maintenance-windows/${id}`, { token: org.token, body: { endTime: later(0.5) } }),
      400,
      'endTimeBeforeStartTime',
    );
    expect((await api('GET', `/api/maintenance-windows/${id}`, { token: org.token })).body).to.deep.equal(patched.body);

    const deleted = await api('DELETE', `/api/maintenance-windows/${id}`, { token: org.token });
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ success: true, id });
    expectError(await api('GET', `/api/maintenance-windows/${id}`, { token: org.token }), 404, 'maintenanceWindowNotFound');
  });

  it('keeps a key per window, unique in the organization (409 maintenanceWindowKeyTaken), changed or cleared by PATCH', async () => {
    const { org, customerId, monitor } = await anOrgWithMonitor();
    const body = { title: 'Keyed', startTime: later(1), endTime: later(2), targets: [{ type: 'monitor', id: String(monitor.id) }] };
    const first = await api('POST', '/api/maintenance-windows', { token: org.token, body: { ...body, key: 'patch/weekly' } });
    expect(first.status).to.equal(201);
    expect(first.body).to.include({ key: 'patch/weekly', customerId });
    // The same definition under another key is another window; the same key again is refused.
    const other = await api('POST', '/api/maintenance-windows', { token: org.token, body: { ...body, key: 'patch/other' } });
    expect(other.status).to.equal(201);
    expect(other.body.id).to.not.equal(first.body.id);
    expectError(
      await api('POST', '/api/maintenance-windows', { token: org.token, body: { ...body, title: 'Else', key: 'patch/weekly' } }),
      409,
      'maintenanceWindowKeyTaken',
    );
    expectError(
      await api('PATCH', `/api/maintenance-windows/${other.body.id}`, { token: org.token, body: { key: 'patch/weekly' } }),
      409,
      'maintenanceWindowKeyTaken',
    );
    expectError(
      await api('POST', '/api/maintenance-windows', { token: org.token, body: { ...body, key: ' spaced' } }),
      400,
      'validationFailed',
    );
    const cleared = await api('PATCH', `/api/maintenance-windows/${first.body.id}`, { token: org.token, body: { key: null } });
    expect(cleared.body.key).to.equal(null);
    // Another organization may use the same key.
    const stranger = await anOrgWithMonitor();
    const theirs = await api('POST', '/api/maintenance-windows', {
      token: stranger.org.token,
      body: { ...body, key: 'patch/other', targets: [{ type: 'monitor', id: String(stranger.monitor.id) }] },
    });
    expect(theirs.status).to.equal(201);
  });

  it("answers the spec's codes for bad times and for targets that are missing or invisible", async () => {
    const { org, customerId, monitor } = await anOrgWithMonitor();
    const stranger = await anOrganization('stranger');
    const foreignCustomer = await aCustomerRow(stranger.user.organizationId);
    const foreignIp = await anIp(stranger.token, foreignCustomer);
    const foreignDomain = await aDomain(stranger.token, foreignCustomer);
    const window = (targets: unknown[], extra: Record<string, unknown> = {}) =>
      api('POST', '/api/maintenance-windows', {
        token: org.token,
        body: { title: 'T', startTime: later(1), endTime: later(2), targets, ...extra },
      });
    expectError(await window([{ type: 'customer' }]), 400, 'missingTargetId');
    expectError(await window([{ type: 'customer', id: String(foreignCustomer) }]), 404, 'customerNotFound');
    expectError(await window([{ type: 'customerIp', id: foreignIp.publicId }]), 404, 'customerIpNotFound');
    expectError(await window([{ type: 'customerDomain', id: foreignDomain.publicId }]), 404, 'customerDomainNotFound');
    expectError(await window([{ type: 'website', id: monitor.publicId }], { endTime: later(1) }), 400, 'endTimeBeforeStartTime');
    const badZone = await window([{ type: 'website', id: monitor.publicId }], { timezone: 'Mars/Olympus' });
    expectError(badZone, 400, 'validationFailed');
    expect(badZone.body.data.issues[0].path).to.deep.equal(['timezone']);
    const badRule = await window([{ type: 'website', id: monitor.publicId }], { rrule: 'FREQ=SOMETIMES' });
    expectError(badRule, 400, 'validationFailed');
    expect(badRule.body.data.issues[0].path).to.deep.equal(['rrule']);
    expectError(
      await api('POST', '/api/maintenance-windows/preview-occurrences', {
        token: org.token,
        body: { startTime: later(2), endTime: later(1) },
      }),
      400,
      'invalidWindow',
    );
    const own = await window([{ type: 'customer', id: String(customerId) }]);
    expect(own.status).to.equal(201);
    expect((await api('GET', '/api/maintenance-windows', { token: org.token })).body.items).to.have.length(1);
  });

  it("answers 500 maintenanceWindowTargetMissing once the window's monitor is deleted, and lets the window be deleted", async () => {
    const { org, monitor } = await anOrgWithMonitor();
    const created = await api('POST', '/api/maintenance-windows', {
      token: org.token,
      body: { title: 'T', startTime: later(1), endTime: later(2), targets: [{ type: 'website', id: monitor.publicId }] },
    });
    const { database } = await testServer();
    await database.sql.query(sql`DELETE FROM monitors WHERE id = ${monitor.id}`);
    expectError(
      await api('GET', `/api/maintenance-windows/${created.body.id}`, { token: org.token }),
      500,
      'maintenanceWindowTargetMissing',
    );
    expect((await api('DELETE', `/api/maintenance-windows/${created.body.id}`, { token: org.token })).status).to.equal(200);
  });

  it("lets a customer-scoped caller see and manage only its customer's windows", async () => {
    const { org, customerId, monitor } = await anOrgWithMonitor();
    const otherCustomer = await aCustomerRow(org.user.organizationId);
    const otherMonitor = await aMonitorRow(org.user.organizationId, otherCustomer);
    const token = await aCustomerToken(org.token, customerId);
    const foreign = await api('POST', '/api/maintenance-windows', {
      token: org.token,
      body: { title: 'Other customer', startTime: later(1), endTime: later(2), targets: [{ type: 'website', id: otherMonitor.publicId }] },
    });
    expectError(
      await api('POST', '/api/maintenance-windows', {
        token,
        body: { title: 'Mine?', startTime: later(1), endTime: later(2), targets: [{ type: 'website', id: otherMonitor.publicId }] },
      }),
      404,
      'websiteNotFound',
    );
    const own = await api('POST', '/api/maintenance-windows', {
      token,
      body: { title: 'Mine', startTime: later(1), endTime: later(2), targets: [{ type: 'website', id: monitor.publicId }] },
    });
    expect(own.status).to.equal(201);
    expect((await api('GET', '/api/maintenance-windows', { token })).body.items.map((w: { id: string }) => w.id)).to.deep.equal([
      own.body.id,
    ]);
    expectError(await api('DELETE', `/api/maintenance-windows/${foreign.body.id}`, { token }), 404, 'maintenanceWindowNotFound');
    expect((await api('GET', '/api/maintenance-windows', { token: org.token })).body.items).to.have.length(2);
  });

  it('checks one website or many against running occurrences', async () => {
    const { org, monitor } = await anOrgWithMonitor();
    const idle = await aMonitorRow(org.user.organizationId, monitor.customerId);
    const created = await api('POST', '/api/maintenance-windows', {
      token: org.token,
      body: {
        title: 'Now',
        startTime: new Date(testClock.now().getTime() - HOUR).toISOString(),
        endTime: later(1),
        targets: [{ type: 'website', id: monitor.publicId }],
        excludeFromUptime: true,
      },
    });
    expect(created.body.status).to.equal('in_progress');
    const one = await api('GET', `/api/maintenance-windows/check/${monitor.publicId}`, { token: org.token });
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.include({ websiteId: monitor.publicId, inMaintenance: true, suppressAlerts: true, excludeFromUptime: true });
    expect(one.body.windows).to.deep.equal([{ id: created.body.id, title: 'Now', ...created.body.currentOccurrence }]);
    const afterwards = await api('GET', `/api/maintenance-windows/check/${monitor.publicId}`, {
      token: org.token,
      query: { at: later(2) },
    });
    expect(afterwards.body.inMaintenance).to.equal(false);
    const batch = await api('POST', '/api/maintenance-windows/check/batch', {
      token: org.token,
      body: { websiteIds: [monitor.publicId, idle.publicId, '00000000-0000-4000-8000-000000000000'] },
    });
    expect(batch.status).to.equal(200);
    expect(batch.body.results.map((r: { websiteId: string; inMaintenance: boolean }) => [r.websiteId, r.inMaintenance])).to.deep.equal([
      [monitor.publicId, true],
      [idle.publicId, false],
    ]);
    expect(batch.body.notFound).to.deep.equal(['00000000-0000-4000-8000-000000000000']);
    const stranger = await anOrganization('stranger');
    expectError(await api('GET', `/api/maintenance-windows/check/${monitor.publicId}`, { token: stranger.token }), 404, 'websiteNotFound');
  });

  it("covers a customer's monitors, IPs and domains through a customer target, and a single IP or domain through its own", async () => {
    const { org, customerId, monitor } = await anOrgWithMonitor();
    const ip = await anIp(org.token, customerId);
    const domain = await aDomain(org.token, customerId);
    const otherIp = await anIp(org.token, customerId);
    const now = testClock.now();
    const body = (targets: unknown[]) => ({
      title: 'Rack move',
      startTime: new Date(now.getTime() - HOUR).toISOString(),
      endTime: later(1),
      targets,
    });
    expect(
      (await api('POST', '/api/maintenance-windows', { token: org.token, body: body([{ type: 'customerIp', id: ip.publicId }]) })).status,
    ).to.equal(201);
    const { container } = await testServer();
    const inContext = <T>(work: () => Promise<T>) => work();
    const assetService = container.get(AssetMaintenance);
    const monitorService = container.get<MaintenanceWindows>(MAINTENANCE_WINDOWS);
    const assets = {
      isSuppressed: (a: Parameters<AssetMaintenance['isSuppressed']>[0], t: Date) => inContext(() => assetService.isSuppressed(a, t)),
    };
    const monitors = { isSuppressed: (id: number, t: Date) => inContext(() => monitorService.isSuppressed(id, t)) };
    expect(await assets.isSuppressed({ type: 'customerIp', id: ip.id }, now)).to.equal(true);
    expect(await assets.isSuppressed({ type: 'customerIp', id: otherIp.id }, now)).to.equal(false);
    expect(await assets.isSuppressed({ type: 'customerDomain', id: domain.id }, now)).to.equal(false);
    expect(await monitors.isSuppressed(monitor.id, now)).to.equal(false);
    const customerWide = await api('POST', '/api/maintenance-windows', {
      token: org.token,
      body: body([{ type: 'customer', id: String(customerId) }]),
    });
    expect(customerWide.body.targets).to.have.length(1);
    expect(await assets.isSuppressed({ type: 'customerDomain', id: domain.id }, now)).to.equal(true);
    expect(await monitors.isSuppressed(monitor.id, now)).to.equal(true);
    expect(await monitors.isSuppressed(monitor.id, new Date(now.getTime() + 2 * HOUR))).to.equal(false);
  });

  it("leaves the time of a window marked excludeFromUptime out of the website's uptime", async () => {
    const org = await anOrganization('maintenance');
    const monitor = await aMonitorRow(org.user.organizationId, await aCustomerRow(org.user.organizationId), { consecutiveChecks: 100 });
    const start = new Date(Math.floor((testClock.now().getTime() - 3 * HOUR) / 60_000) * 60_000);
    const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000);
    for (let m = 0; m < 60; m += 1) await record(monitor, 'eu', aResult(m < 30 ? 'up' : 'down', at(m)));
    const window = await api('POST', '/api/maintenance-windows', {
      token: org.token,
      body: {
        title: 'Migration',
        startTime: at(30).toISOString(),
        endTime: at(60).toISOString(),
        excludeFromUptime: true,
        targets: [{ type: 'website', id: monitor.publicId }],
      },
    });
    const uptime = async () =>
      (
        await api('GET', `/api/websites/${monitor.publicId}/uptime-stats`, {
          token: org.token,
          query: { from: at(0).toISOString(), to: at(60).toISOString() },
        })
      ).body;
    expect(await uptime()).to.deep.include({ upSeconds: 1800, downSeconds: 0, unknownSeconds: 0, uptimePercent: 100 });
    await api('PATCH', `/api/maintenance-windows/${window.body.id}`, { token: org.token, body: { excludeFromUptime: false } });
    expect(await uptime()).to.deep.include({ upSeconds: 1800, downSeconds: 1800, uptimePercent: 50 });
  });

  it('previews a weekly 02:00 Europe/Berlin window at 02:00 local time on both sides of the daylight-saving changes', async () => {
    const org = await anOrganization('maintenance');
    const preview = await api('POST', '/api/maintenance-windows/preview-occurrences', {
      token: org.token,
      body: {
        startTime: '2026-03-21T02:00:00+01:00',
        endTime: '2026-03-21T03:00:00+01:00',
        timezone: 'Europe/Berlin',
        rrule: 'FREQ=WEEKLY;BYDAY=SA',
        count: 3,
      },
    });
    expect(preview.status).to.equal(200);
    expect(preview.body).to.deep.equal({
      occurrences: [
        { startTime: '2026-03-21T01:00:00.000Z', endTime: '2026-03-21T02:00:00.000Z' },
        { startTime: '2026-03-28T01:00:00.000Z', endTime: '2026-03-28T02:00:00.000Z' },
        { startTime: '2026-04-04T00:00:00.000Z', endTime: '2026-04-04T01:00:00.000Z' },
      ],
    });
    const october = await api('POST', '/api/maintenance-windows/preview-occurrences', {
      token: org.token,
      body: {
        startTime: '2026-03-21T02:00:00+01:00',
        endTime: '2026-03-21T03:00:00+01:00',
        timezone: 'Europe/Berlin',
        rrule: 'FREQ=WEEKLY;BYDAY=SA',
        from: '2026-10-20T00:00:00Z',
        count: 2,
      },
    });
    expect(october.body.occurrences.map((o: { startTime: string }) => o.startTime)).to.deep.equal([
      '2026-10-24T00:00:00.000Z',
      '2026-10-31T01:00:00.000Z',
    ]);
  });
});
