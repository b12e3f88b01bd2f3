import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow, aCustomerToken, aMember } from '../../../support/identity-fixtures';
import { aMonitorRow, aProcessServing, aResult, record } from '../../../support/results-fixtures';
import { aMonitor, kindSample } from '../../../support/monitoring-fixtures';
import { testClock } from '../../../support/test-clock';

const MINUTE = 60_000;

async function anOrgWithMonitor(overrides: Parameters<typeof aMonitorRow>[2] = {}) {
  const org = await anOrganization();
  const customerId = await aCustomerRow(org.user.organizationId);
  return { org, customerId, monitor: await aMonitorRow(org.user.organizationId, customerId, { consecutiveChecks: 1, ...overrides }) };
}

describe('Incidents API', () => {
  // Both locations of the monitors are served by a live check process: both vote.
  let serving: Awaited<ReturnType<typeof aProcessServing>>;
  before(async () => {
    serving = await aProcessServing(['eu', 'us']);
  });
  after(async () => serving.remove());

  it('shows an automatic incident with its timeline; it cannot be deleted or resolved by hand (notManualIncident)', async () => {
    const { org, monitor } = await anOrgWithMonitor({ locations: ['eu', 'us'], threshold: '1.0', name: 'Shop' });
    const t0 = new Date(testClock.now().getTime() - 20 * MINUTE);
    await record(monitor, 'eu', aResult('down', t0));
    await record(monitor, 'us', aResult('down', new Date(t0.getTime() + 1000), { reasonCode: 'httpStatus', message: 'HTTP 503' }));
    await record(monitor, 'eu', aResult('down', new Date(t0.getTime() + MINUTE)));

    const list = await api('GET', '/api/incidents', { token: org.token, query: { status: 'open', monitorId: String(monitor.id) } });
    expect(list.status).to.equal(200);
    expect(list.body).to.include({ total: 1, page: 1, perPage: 50 });
    const incident = list.body.items[0];
    expect(incident).to.include({
      monitorId: monitor.id,
      customerId: monitor.customerId,
      origin: 'automatic',
      status: 'open',
      title: 'Shop is down',
      monitorName: 'Shop',
      monitorKind: 'website',
      startedAt: t0.toISOString(),
      resolvedAt: null,
      durationSeconds: null,
    });
    expect(incident.cause).to.deep.equal({ reasonCode: 'httpStatus', message: 'HTTP 503' });

    expectError(await api('DELETE', `/api/incidents/${incident.publicId}`, { token: org.token }), 403, 'notManualIncident');
    expectError(await api('POST', `/api/incidents/${incident.publicId}/resolve`, { token: org.token }), 403, 'notManualIncident');

    await record(monitor, 'us', aResult('up', new Date(t0.getTime() + 2 * MINUTE)));
    const detail = await api('GET', `/api/incidents/${incident.publicId}`, { token: org.token });
    expect(detail.status).to.equal(200);
    expect(detail.body).to.include({
      status: 'resolved',
      resolvedAt: new Date(t0.getTime() + 2 * MINUTE).toISOString(),
      durationSeconds: 120,
    });
    expect(
      detail.body.timeline.map((e: { kind: string; location: string | null; status: string | null }) => [e.kind, e.location, e.status]),
    ).to.deep.equal([
      ['locationReport', 'eu', 'down'],
      ['opened', null, null],
      ['locationReport', 'us', 'down'],
      ['resolved', 'us', 'up'],
    ]);
    const byLegacyId = await api('GET', `/api/incidents/${incident.id}`, { token: org.token });
    expect(byLegacyId.body.publicId).to.equal(incident.publicId);
    expect((await api('GET', '/api/incidents', { token: org.token, query: { status: 'open' } })).body.total).to.equal(0);
  });

  it('creates, acknowledges, resolves and deletes a manual incident', async () => {
    const { org, monitor } = await anOrgWithMonitor();
    const created = await api('POST', '/api/incidents', {
      token: org.token,
      body: { monitorId: monitor.publicId, title: 'Planned database failover', description: 'Expect errors' },
    });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({
      origin: 'manual',
      status: 'open',
      title: 'Planned database failover',
      monitorId: monitor.id,
      createdByUserId: org.user.id,
    });
    const id = created.body.publicId;
    const acknowledged = await api('POST', `/api/incidents/${id}/acknowledge`, { token: org.token });
    expect(acknowledged.body).to.include({ status: 'acknowledged', acknowledgedByUserId: org.user.id });
    const again = await api('POST', `/api/incidents/${id}/acknowledge`, { token: org.token });
    expect(again.body.acknowledgedAt).to.equal(acknowledged.body.acknowledgedAt);
    const resolved = await api('POST', `/api/incidents/${id}/resolve`, { token: org.token });
    expect(resolved.body).to.include({ status: 'resolved', resolvedByUserId: org.user.id });
    expectError(await api('POST', `/api/incidents/${id}/acknowledge`, { token: org.token }), 409, 'incidentAlreadyResolved');
    expectError(await api('POST', `/api/incidents/${id}/resolve`, { token: org.token }), 409, 'incidentAlreadyResolved');
    const detail = await api('GET', `/api/incidents/${id}`, { token: org.token });
    expect(detail.body.timeline.map((e: { kind: string }) => e.kind)).to.deep.equal(['opened', 'acknowledged', 'resolved']);
    const byLegacyMonitorId = await api('POST', '/api/incidents', { token: org.token, body: { monitorId: monitor.id, title: 'Second' } });
    expect(byLegacyMonitorId.status).to.equal(201);
    const deleted = await api('DELETE', `/api/incidents/${id}`, { token: org.token });
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ success: true });
    expectError(await api('GET', `/api/incidents/${id}`, { token: org.token }), 404, 'incidentNotFound');
  });

  it("names each incident's monitor in the list, whatever the monitor's kind", async () => {
    const { org, customerId } = await anOrgWithMonitor();
    const customer = (await api('GET', `/api/customers/${customerId}`, { token: org.token })).body;
    const dns = await aMonitor(org.token, 'dns', { ...kindSample('dns'), name: 'Resolver of the shop', customerId: customer.publicId });
    const tcp = await aMonitor(org.token, 'tcp', { ...kindSample('tcp'), name: 'Database port', customerId: customer.publicId });
    for (const monitor of [dns, tcp]) {
      expect(
        (await api('POST', '/api/incidents', { token: org.token, body: { monitorId: monitor.publicId, title: 'Look' } })).status,
      ).to.equal(201);
    }
    const list = await api('GET', '/api/incidents', { token: org.token });
    expect(list.body.items.map((i: { monitorName: string; monitorKind: string }) => [i.monitorName, i.monitorKind])).to.deep.equal([
      ['Database port', 'tcp'],
      ['Resolver of the shop', 'dns'],
    ]);
    const detail = await api('GET', `/api/incidents/${list.body.items[1].publicId}`, { token: org.token });
    expect(detail.body).to.include({ monitorName: 'Resolver of the shop', monitorKind: 'dns' });
    const deleted = await api('DELETE', `/api/monitors/dns/${dns.publicId}`, { token: org.token });
    expect(deleted.status).to.equal(200);
    const after = await api('GET', '/api/incidents', { token: org.token });
    expect(after.body.items.map((i: { monitorName: string | null }) => i.monitorName)).to.deep.equal(['Database port', null]);
    const orphan = await api('GET', `/api/incidents/${list.body.items[1].publicId}`, { token: org.token });
    expect(orphan.body).to.include({ monitorName: null, monitorKind: null });
  });

  it('keeps tenants apart: other organizations and other customers see nothing', async () => {
    const { org, customerId, monitor } = await anOrgWithMonitor();
    const created = await api('POST', '/api/incidents', { token: org.token, body: { monitorId: monitor.publicId, title: 'Ours' } });
    const stranger = await anOrganization('stranger');
    expectError(await api('GET', `/api/incidents/${created.body.publicId}`, { token: stranger.token }), 404, 'incidentNotFound');
    expectError(await api('DELETE', `/api/incidents/${created.body.publicId}`, { token: stranger.token }), 404, 'incidentNotFound');
    expect((await api('GET', '/api/incidents', { token: stranger.token })).body.total).to.equal(0);
    expectError(
      await api('POST', '/api/incidents', { token: stranger.token, body: { monitorId: monitor.publicId, title: 'x' } }),
      404,
      'monitorNotFound',
    );

    const otherCustomer = await aCustomerRow(org.user.organizationId);
    const otherMonitor = await aMonitorRow(org.user.organizationId, otherCustomer);
    await api('POST', '/api/incidents', { token: org.token, body: { monitorId: otherMonitor.publicId, title: 'Theirs' } });
    const own = await aCustomerToken(org.token, customerId);
    const seen = await api('GET', '/api/incidents', { token: own });
    expect(seen.body.items.map((i: { title: string }) => i.title)).to.deep.equal(['Ours']);
    expect((await api('GET', '/api/incidents', { token: own, query: { customerId: String(otherCustomer) } })).body.total).to.equal(0);
    expect((await api('GET', '/api/incidents', { token: org.token, query: { customerId: String(otherCustomer) } })).body.total).to.equal(1);
    expect((await api('GET', '/api/incidents', { token: org.token })).body.total).to.equal(2);
  });

  it('lets readers read but only writers declare or delete; responders may acknowledge', async () => {
    const { org, monitor } = await anOrgWithMonitor();
    const created = await api('POST', '/api/incidents', { token: org.token, body: { monitorId: monitor.publicId, title: 'Outage' } });
    const readonly = await aMember(org, 'readonly');
    const responder = await aMember(org, 'responder');
    expect((await api('GET', `/api/incidents/${created.body.publicId}`, { token: readonly.token })).status).to.equal(200);
    expectError(
      await api('POST', '/api/incidents', { token: readonly.token, body: { monitorId: monitor.publicId, title: 'x' } }),
      403,
      'roleForbidden',
    );
    expectError(await api('DELETE', `/api/incidents/${created.body.publicId}`, { token: readonly.token }), 403, 'roleForbidden');
    expectError(await api('POST', `/api/incidents/${created.body.publicId}/acknowledge`, { token: readonly.token }), 403, 'roleForbidden');
    expect((await api('POST', `/api/incidents/${created.body.publicId}/acknowledge`, { token: responder.token })).body.status).to.equal(
      'acknowledged',
    );
  });

  it('validates filters and bodies', async () => {
    const { org, monitor } = await anOrgWithMonitor();
    expectError(await api('GET', '/api/incidents', { token: org.token, query: { from: 'last week' } }), 400, 'invalidDateRange');
    expectError(
      await api('GET', '/api/incidents', { token: org.token, query: { from: '2026-02-01', to: '2026-01-01' } }),
      400,
      'invalidDateRange',
    );
    expectError(await api('GET', '/api/incidents', { token: org.token, query: { status: 'merged' } }), 400, 'validationFailed');
    expectError(await api('GET', '/api/incidents', { token: org.token, query: { page: '' } }), 400, 'validationFailed');
    expectError(
      await api('POST', '/api/incidents', { token: org.token, body: { monitorId: monitor.publicId, title: ' ' } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('POST', '/api/incidents', { token: org.token, body: { monitorId: monitor.publicId, title: 'x', origin: 'automatic' } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('POST', '/api/incidents', { token: org.token, body: { monitorId: '99999999999', title: 'x' } }),
      404,
      'monitorNotFound',
    );
    expectError(await api('GET', '/api/incidents/nope', { token: org.token }), 404, 'incidentNotFound');
  });

  it('filters by time: incidents overlapping from/to', async () => {
    const { org, monitor } = await anOrgWithMonitor();
    const t0 = new Date(testClock.now().getTime() - 60 * MINUTE);
    await record(monitor, 'eu', aResult('down', t0));
    await record(monitor, 'eu', aResult('up', new Date(t0.getTime() + 5 * MINUTE)));
    const query = (from: Date, to: Date) =>
      api('GET', '/api/incidents', {
        token: org.token,
        query: { origin: 'automatic', from: from.toISOString(), to: to.toISOString() },
      });
    expect((await query(new Date(t0.getTime() + 2 * MINUTE), new Date(t0.getTime() + 3 * MINUTE))).body.total).to.equal(1);
    expect((await query(new Date(t0.getTime() + 10 * MINUTE), new Date(t0.getTime() + 20 * MINUTE))).body.total).to.equal(0);
    expect((await query(new Date(t0.getTime() - 20 * MINUTE), new Date(t0.getTime() - 10 * MINUTE))).body.total).to.equal(0);
  });
});
