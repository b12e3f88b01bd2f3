import { FakeTransaction } from '../../../support/fakes/shared-fakes';
import { expect } from 'chai';
import type { ImIncident } from '../../../../src/domain/incident-management/im-incident';
import { organizationScope } from '../../../../src/domain/shared/tenant-scope';
import { MonitorSyncedImIncidents, monitorSideOf } from '../../../../src/application/incident-management/monitor-incident-sync';
import type { MonitorIncidentSync } from '../../../../src/application/incident-management/ports';
import { FakeImIncidents, FakeImMonitorOrigins } from '../../../support/fakes/incident-management-fakes';
import { anImIncident } from '../../../support/builders/im-incident';

const NOW = new Date('2026-11-24T10:00:00Z');
const scope = organizationScope(7);

/** An incident of organization 7 for customer 3, "Shop is down" from the monitor, routed from `monitorOrigin`. */
const anIncident = (monitorOrigin: ImIncident['monitorOrigin']) =>
  anImIncident('triggered', NOW, { organizationId: 7, title: 'Shop is down', source: 'monitor', customerId: 3, monitorOrigin });

/** A synced repository whose added incidents stand for the engine incident of their monitorOrigin. */
function withOrigins(sync: MonitorIncidentSync) {
  const incidents = new FakeImIncidents();
  const origins = new FakeImMonitorOrigins(incidents);
  const repository = new MonitorSyncedImIncidents(incidents, origins, sync);
  const add = repository.add.bind(repository);
  repository.add = async (scope, incident) => {
    const added = await add(scope, incident, new FakeTransaction());
    if (incident.monitorOrigin) await origins.link(scope, added.id, incident.monitorOrigin);
    return added;
  };
  return repository;
}

class RecordingSync implements MonitorIncidentSync {
  readonly calls: Array<[string, string, string | null, string]> = [];
  async acknowledged(o: { incidentId: string }, userId: string | null, at: Date) {
    this.calls.push(['acknowledged', o.incidentId, userId, at.toISOString()]);
  }
  async resolved(o: { incidentId: string }, userId: string | null, at: Date) {
    this.calls.push(['resolved', o.incidentId, userId, at.toISOString()]);
  }
}

describe('MonitorSyncedImIncidents (acknowledgement and resolution parity, IM side)', () => {
  it('carries an acknowledgement, a status change to acknowledged and a resolution over to the automatic incident, with the person and time', async () => {
    const sync = new RecordingSync();
    const repository = withOrigins(sync);
    const incident = await repository.add(scope, anIncident({ monitorId: 'm-1', incidentId: 'inc-1' }), new FakeTransaction());
    incident.acknowledge('u-1', NOW);
    await repository.save(scope, incident, new FakeTransaction());
    const later = new Date(NOW.getTime() + 60_000);
    const reread = (await repository.findByRef(scope, incident.publicId))!;
    reread.resolve('u-2', later);
    await repository.save(scope, reread, new FakeTransaction());
    expect(sync.calls).to.deep.equal([
      ['acknowledged', 'inc-1', 'u-1', NOW.toISOString()],
      ['resolved', 'inc-1', 'u-2', later.toISOString()],
    ]);
  });

  it("carries an acknowledgement of a storm's IM incident over to each of its engine incidents still down", async () => {
    const sync = new RecordingSync();
    const incidents = new FakeImIncidents();
    const origins = new FakeImMonitorOrigins(incidents);
    const repository = new MonitorSyncedImIncidents(incidents, origins, sync);
    const storm = await repository.add(scope, anIncident({ monitorId: 'm-1', incidentId: 'inc-1' }), new FakeTransaction());
    for (const id of ['inc-1', 'inc-2', 'inc-3']) await origins.link(scope, storm.id, { monitorId: `m-${id}`, incidentId: id });
    await origins.recovered(scope, 'inc-2', NOW);
    storm.acknowledge('u-1', NOW);
    await repository.save(scope, storm, new FakeTransaction());
    expect(sync.calls.map((c) => c[1])).to.deep.equal(['inc-1', 'inc-3']);
  });

  it("leaves incidents not routed from a monitor, and the engine's own resolution, alone", async () => {
    const sync = new RecordingSync();
    const repository = withOrigins(sync);
    const plain = await repository.add(scope, anIncident(null), new FakeTransaction());
    plain.acknowledge('u-1', NOW);
    await repository.save(scope, plain, new FakeTransaction());
    const routed = await repository.add(scope, anIncident({ monitorId: 'm-1', incidentId: 'inc-2' }), new FakeTransaction());
    routed.resolve(null, NOW, { origin: 'monitor', reason: 'monitorRecovered' });
    await repository.save(scope, routed, new FakeTransaction());
    expect(sync.calls).to.deep.equal([]);
  });

  it('reads a status change back to triggered as nothing for the engine (its incidents cannot be un-acknowledged)', () => {
    expect(
      monitorSideOf({ kind: 'statusChanged', at: NOW, actorUserId: 'u', details: { from: 'acknowledged', to: 'triggered' } }),
    ).to.equal(null);
    expect(
      monitorSideOf({ kind: 'statusChanged', at: NOW, actorUserId: 'u', details: { from: 'triggered', to: 'acknowledged' } }),
    ).to.equal('acknowledged');
    expect(monitorSideOf({ kind: 'snoozed', at: NOW, actorUserId: 'u', details: {} })).to.equal(null);
  });
});
