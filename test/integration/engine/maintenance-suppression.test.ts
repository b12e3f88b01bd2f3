import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AnnounceMaintenance } from '../../../src/application/maintenance/announce-maintenance';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aCustomerRow } from '../../support/identity-fixtures';
import { aMonitorRow } from '../../support/results-fixtures';
import { useLoopbackChecks } from '../../support/loopback-checks';
import { testClock } from '../../support/test-clock';
import { testServer } from '../../support/test-server';
import { anEngineFor, runUntilRecorded } from '../../support/engine-runs';
import { sql } from '../../../src/infrastructure/persistence/sql';

const LOCATION = 'eu-west';
const MINUTE = 60_000;

describe('maintenance windows end to end: checks go on, alerts do not', () => {
  let server: http.Server;
  let url: string;
  const monitorIds = new Set<number>();

  before(async () => {
    await useLoopbackChecks({});
    server = http.createServer((_req, res) => res.writeHead(500).end('down for maintenance'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  async function aFailingWebsite() {
    const org = await anOrganization('maintenance-engine');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { locations: [LOCATION], consecutiveChecks: 1 });
    const { database } = await testServer();
    await database.sql.query(
      sql`UPDATE monitors SET kind = 'website', monitoring_type = 'http', url = ${url}, timeout_seconds = 5 WHERE id = ${monitor.id}`,
    );
    await database.sql.query(
      sql`UPDATE check_schedule SET next_due_at = ${new Date(testClock.now().getTime() + 3_600_000)} WHERE monitor_id = ${monitor.id}`,
    );
    monitorIds.add(monitor.id);
    return { org, monitor, database };
  }

  it('records failing checks inside a window without an incident, and opens exactly one when the window is over and it still fails', async () => {
    const { org, monitor, database } = await aFailingWebsite();
    const dispatcher = await anEngineFor(monitorIds, [LOCATION], 'maintenance-engine');
    const window = await api('POST', '/api/maintenance-windows', {
      token: org.token,
      body: {
        title: 'Release',
        startTime: new Date(testClock.now().getTime() - MINUTE).toISOString(),
        endTime: new Date(testClock.now().getTime() + 60 * MINUTE).toISOString(),
        targets: [{ type: 'customer', id: String(monitor.customerId) }],
      },
    });
    expect(window.body.status).to.equal('in_progress');

    for (let i = 0; i < 2; i++) {
      await api('POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: org.token });
      await runUntilRecorded(dispatcher, 1);
    }
    const openIncidents = async () =>
      (await api('GET', '/api/incidents', { token: org.token, query: { status: 'open' } })).body.items.filter(
        (i: { monitorId: number }) => i.monitorId === monitor.id,
      );
    const history = await api('GET', `/api/websites/${monitor.publicId}/check-history`, { token: org.token });
    expect(history.body.items.map((r: { status: string }) => r.status)).to.deep.equal(['down', 'down']);
    expect(await openIncidents()).to.have.length(0);

    // The window ends now; the target still fails.
    const ended = await api('PATCH', `/api/maintenance-windows/${window.body.id}`, {
      token: org.token,
      body: { endTime: testClock.now().toISOString() },
    });
    expect(ended.status).to.equal(200);
    const windowEnd = Date.parse(ended.body.endTime);
    for (let i = 0; i < 2; i++) {
      await api('POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: org.token });
      await runUntilRecorded(dispatcher, 1);
    }
    const [incident] = await openIncidents();
    expect(await openIncidents()).to.have.length(1);
    // The outage starts at the first failure after the window, not at the failures inside it.
    expect(Date.parse(incident.startedAt), `${incident.startedAt} vs window end ${ended.body.endTime}`).to.be.at.least(windowEnd);
    const kinds = await database.sql.query<{ kind: string }>(
      sql`SELECT kind FROM notification_outbox WHERE organization_id = ${org.user.organizationId} ORDER BY id`,
    );
    expect(kinds.map((k) => k.kind).filter((k) => !k.startsWith('maintenance.'))).to.deep.equal(['incidentOpened']);
  });

  it("announces a window's start and end into the outbox exactly once, however many workers run the job", async () => {
    const { org, monitor, database } = await aFailingWebsite();
    const created = await api('POST', '/api/maintenance-windows', {
      token: org.token,
      body: {
        title: 'Short',
        startTime: new Date(testClock.now().getTime() - 2 * MINUTE).toISOString(),
        endTime: new Date(testClock.now().getTime() + 60 * MINUTE).toISOString(),
        targets: [{ type: 'website', id: monitor.publicId }],
      },
    });
    expect(created.status).to.equal(201);
    const { container } = await testServer();
    const announcer = container.get(AnnounceMaintenance);
    await announcer.execute();
    // It ends (earlier than planned), after it was created and announced as started.
    const ended = await api('PATCH', `/api/maintenance-windows/${created.body.id}`, {
      token: org.token,
      body: { endTime: testClock.now().toISOString() },
    });
    await Promise.all([0, 1, 2].map(() => announcer.execute()));
    await announcer.execute();
    const rows = await database.sql.query<{ kind: string; payload: Record<string, unknown> }>(
      sql`SELECT kind, payload FROM notification_outbox WHERE organization_id = ${org.user.organizationId} AND kind LIKE 'maintenance.%' ORDER BY id`,
    );
    expect(rows.map((r) => r.kind)).to.deep.equal(['maintenance.scheduled', 'maintenance.started', 'maintenance.ended']);
    expect(rows[1]!.payload).to.deep.include({
      maintenanceWindowId: created.body.id,
      title: 'Short',
      startTime: created.body.startTime,
      endTime: created.body.endTime,
    });
    expect(rows[2]!.payload).to.deep.include({ maintenanceWindowId: created.body.id, endTime: ended.body.endTime });
    expect(rows[1]!.payload).to.deep.include({
      targets: [{ type: 'website', id: monitor.publicId }],
    });
  });
});
