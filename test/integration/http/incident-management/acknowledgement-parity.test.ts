import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { aWebsite, storedMonitor } from '../../../support/monitoring-fixtures';
import { aProcessServing, aResult, record, type MonitorRow } from '../../../support/results-fixtures';
import { TEST_LOCATIONS, testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MINUTE = 60_000;

/**
 * Acknowledging or resolving is one act wherever it happens: an automatic incident routed into
 * incident management shows the same acknowledgement (same person, same moment) through both APIs,
 * and its channels hear of it once, whichever API the person used (and however: by hand, in bulk,
 * by status change).
 */
describe('acknowledgement and resolution parity between monitor incidents and IM incidents', () => {
  let set: CallerSet;
  let row: MonitorRow;
  let clockAt = testClock.now().getTime() - 600 * MINUTE;
  // Every location of the catalogue is served, so each one's results vote (a silent one would not).
  let serving: Awaited<ReturnType<typeof aProcessServing>>;
  after(async () => serving?.remove());

  before(async () => {
    serving = await aProcessServing(TEST_LOCATIONS);
    set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    const put = await api('PUT', `/api/im/routing/customers/${set.customer.id}`, { token: set.admin, body: { enabled: true } });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    const website = await aWebsite(set.admin, { customerId: set.customer.id });
    const stored = await storedMonitor(website.publicId);
    row = {
      id: Number(stored.id),
      publicId: website.publicId,
      organizationId: set.organizationId,
      customerId: set.customer.id,
      checkIntervalSeconds: Number(stored.check_interval_seconds),
    };
  });

  /** Two failures (the default alertConsecutiveChecks) at every location open the automatic incident, which is routed into IM. */
  /** Every location of the monitor reports `status` (the default quorum is half of them). */
  async function everyLocation(status: 'up' | 'down'): Promise<void> {
    const at = new Date((clockAt += MINUTE));
    for (const location of (await storedMonitor(row.publicId)).locations as string[]) await record(row, location, aResult(status, at));
  }

  async function anOutage(): Promise<{ incidentId: string; imId: string }> {
    for (let i = 0; i < 2; i += 1) await everyLocation('down');
    const incidents = await api('GET', `/api/incidents?status=open&monitorId=${row.id}`, { token: set.admin });
    expect(incidents.status, JSON.stringify(incidents.body)).to.equal(200);
    const incident = (incidents.body.items as Array<Record<string, any>>).find((i) => i.origin === 'automatic' && i.status === 'open');
    expect(incident, JSON.stringify(incidents.body)).to.exist;
    const im = (await api('GET', '/api/im/incidents?status=triggered', { token: set.admin })).body.items as Array<Record<string, any>>;
    const routed = im.find((i) => i.monitorOrigin?.incidentId === incident!.publicId);
    expect(routed, JSON.stringify(im)).to.exist;
    return { incidentId: incident!.publicId, imId: routed!.id };
  }

  const recovery = () => everyLocation('up');

  async function eventsOf(incidentId: string, kind: string): Promise<Array<Record<string, any>>> {
    const { database } = await testServer();
    const rows = await database.sql.query<{ payload: Record<string, any> }>(
      sql`SELECT payload FROM notification_outbox WHERE kind = ${kind} AND payload->>'incidentId' = ${incidentId}`,
    );
    return rows.map((r) => r.payload);
  }

  const get = async (path: string) => {
    const answer = await api('GET', path, { token: set.admin });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    return answer.body as Record<string, any>;
  };

  it('acknowledged through the monitor incident API: the IM incident shows the same acknowledgement, channels hear it once', async () => {
    const { incidentId, imId } = await anOutage();
    const ack = await api('POST', `/api/incidents/${incidentId}/acknowledge`, { token: set.responder });
    expect(ack.status, JSON.stringify(ack.body)).to.equal(200);

    const engine = await get(`/api/incidents/${incidentId}`);
    const im = await get(`/api/im/incidents/${imId}`);
    expect(engine.status).to.equal('acknowledged');
    expect(im.status).to.equal('acknowledged');
    expect(im.acknowledgedByUserId).to.be.a('string').and.equal(engine.acknowledgedByUserId);
    expect(im.acknowledgedAt).to.equal(engine.acknowledgedAt);
    const events = await eventsOf(incidentId, 'incidentAcknowledged');
    expect(events).to.have.length(1);
    expect(events[0]!.data).to.include({ via: 'monitorIncident' });
    await recovery();
    expect((await get(`/api/im/incidents/${imId}`)).status).to.equal('resolved');
  });

  it('acknowledged in incident management: the monitor incident shows it, channels hear it once', async () => {
    const { incidentId, imId } = await anOutage();
    const ack = await api('POST', `/api/im/incidents/${imId}/acknowledge`, { token: set.responder });
    expect(ack.status, JSON.stringify(ack.body)).to.equal(200);

    const engine = await get(`/api/incidents/${incidentId}`);
    expect(engine.status).to.equal('acknowledged');
    expect(engine.acknowledgedByUserId).to.be.a('string').and.equal(ack.body.acknowledgedByUserId);
    expect(engine.acknowledgedAt).to.equal(ack.body.acknowledgedAt);
    const timeline = (engine.timeline as Array<Record<string, any>>).map((t) => t.kind);
    expect(timeline.filter((k) => k === 'acknowledged')).to.have.length(1);
    const events = await eventsOf(incidentId, 'incidentAcknowledged');
    expect(events).to.have.length(1);
    expect(events[0]!.data).to.include({ via: 'incidentManagement' });

    // Acknowledging again through the other API changes nothing and tells nobody twice.
    expect((await api('POST', `/api/incidents/${incidentId}/acknowledge`, { token: set.admin })).status).to.equal(200);
    expect(await eventsOf(incidentId, 'incidentAcknowledged')).to.have.length(1);
    await recovery();
  });

  it('acknowledged in bulk or by a status change in incident management: the monitor incidents follow', async () => {
    const first = await anOutage();
    const bulk = await api('POST', '/api/im/incidents/bulk', {
      token: set.admin,
      body: { action: 'acknowledge', incidentIds: [first.imId] },
    });
    expect(bulk.status, JSON.stringify(bulk.body)).to.be.oneOf([200, 207]);
    expect((await get(`/api/incidents/${first.incidentId}`)).status).to.equal('acknowledged');
    await recovery();

    const second = await anOutage();
    const status = await api('POST', `/api/im/incidents/${second.imId}/status`, { token: set.admin, body: { status: 'acknowledged' } });
    expect(status.status, JSON.stringify(status.body)).to.equal(200);
    expect((await get(`/api/incidents/${second.incidentId}`)).status).to.equal('acknowledged');
    await recovery();
  });

  it('resolved in incident management: the monitor incident resolves with the same person and time, and a failure after it opens a new one', async () => {
    const { incidentId, imId } = await anOutage();
    const resolved = await api('POST', `/api/im/incidents/${imId}/resolve`, { token: set.admin });
    expect(resolved.status, JSON.stringify(resolved.body)).to.equal(200);

    const engine = await get(`/api/incidents/${incidentId}`);
    expect(engine.status).to.equal('resolved');
    expect(engine.resolvedByUserId).to.be.a('string').and.equal(resolved.body.resolvedByUserId);
    expect(engine.resolvedAt).to.equal(resolved.body.resolvedAt);
    const events = await eventsOf(incidentId, 'incidentResolved');
    expect(events).to.have.length(1);
    expect(events[0]!.data).to.include({ origin: 'incidentManagement' });

    // Still down: the next failure opens a new incident (and a new IM incident), as PagerDuty re-triggers after a resolve.
    await everyLocation('down');
    const open = (await get(`/api/incidents?status=open&monitorId=${row.id}`)).items as Array<Record<string, any>>;
    expect(open.filter((i) => i.origin === 'automatic')).to.have.length(1);
    expect(open[0]!.publicId).to.not.equal(incidentId);
    await recovery();
  });
});
