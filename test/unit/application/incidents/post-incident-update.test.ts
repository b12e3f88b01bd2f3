import { expect } from 'chai';
import { PostIncidentUpdate } from '../../../../src/application/incidents/post-incident-update';
import { Incident } from '../../../../src/domain/incidents/incident';
import { anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';
import { FakeIncidents } from '../../../support/fakes/incidents-fakes';
import { immediateTransactions } from '../../../support/fakes/shared-fakes';
import { ManualClock } from '../../../support/manual-clock';

async function world(organizationId: number, customerId = 2) {
  const incidents = new FakeIncidents();
  const clock = new ManualClock();
  const incident = await incidents.add(
    new Incident({
      publicId: 'inc-1',
      organizationId,
      customerId,
      monitorId: 3,
      origin: 'automatic',
      title: 'Shop is down',
      description: null,
      causeReasonCode: null,
      causeMessage: null,
      startedAt: clock.now(),
      createdByUserId: null,
      now: clock.now(),
    }),
  );
  return { incidents, clock, incident, postUpdate: new PostIncidentUpdate(incidents, immediateTransactions, clock) };
}

describe('PostIncidentUpdate', () => {
  const actor = anActor().build();

  it("adds the poster's trimmed note to the incident's timeline at the clock's now", async () => {
    const { incidents, clock, incident, postUpdate } = await world(actor.scope.organizationId);
    const entry = await postUpdate.execute(actor, { id: 'inc-1', message: ' Failing over the database ' });
    expect(entry).to.include({ incidentId: incident.id, kind: 'update', message: 'Failing over the database', userId: actor.userId });
    expect(entry.at).to.deep.equal(clock.now());
    expect(await incidents.timeline(incident.id)).to.deep.equal([entry]);
  });

  it('answers incidentNotFound outside the caller scope (another organization, another customer) and stores nothing', async () => {
    const { incidents, incident, postUpdate } = await world(actor.scope.organizationId + 1);
    expect(await codeOf(() => postUpdate.execute(actor, { id: 'inc-1', message: 'x' }))).to.equal('incidentNotFound');
    const other = await world(actor.scope.organizationId, 2);
    const customerActor = anActor().forCustomer(99).build();
    expect(await codeOf(() => other.postUpdate.execute(customerActor, { id: 'inc-1', message: 'x' }))).to.equal('incidentNotFound');
    expect(await incidents.timeline(incident.id)).to.deep.equal([]);
  });

  it('lets responders post and refuses read-only users (roleForbidden)', async () => {
    const { incidents, incident, postUpdate } = await world(actor.scope.organizationId);
    const readonly = anActor().withRole('readonly').build();
    expect(await codeOf(() => postUpdate.execute(readonly, { id: 'inc-1', message: 'x' }))).to.equal('roleForbidden');
    await postUpdate.execute(anActor().withRole('responder').build(), { id: 'inc-1', message: 'On it' });
    expect((await incidents.timeline(incident.id)).map((e) => e.message)).to.deep.equal(['On it']);
  });
});
