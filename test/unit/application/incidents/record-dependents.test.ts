import { aCheckResultWorld } from '../../../support/builders/incidents';
import { FakeTransaction } from '../../../support/fakes/shared-fakes';
import { expect } from 'chai';
import { type RecordCheckResultInput } from '../../../../src/application/incidents/record-check-result';
import type { CheckStatus } from '../../../../src/domain/results/check-status';
import { aPolicy } from '../../../support/fakes/incidents-fakes';
import { aMonitorRef, FakeMonitorLookup } from '../../../support/fakes/results-fakes';
import { aResult } from '../../../support/builders';

const t0 = new Date('2026-11-22T10:00:00Z');
const at = (minute: number) => new Date(t0.getTime() + minute * 60_000);
const ROOT = 7;
const DEPENDENTS = [8, 9, 10];

/** Monitor 7 (the root) and three monitors depending on it, alerting on the first failure of their one location. */
function aDependentsWorld(rootPolicy = aPolicy()) {
  const lookup = new FakeMonitorLookup(aMonitorRef({ monitorId: ROOT, name: 'Server' }), rootPolicy);
  for (const id of DEPENDENTS) {
    lookup.others.set(id, {
      monitor: aMonitorRef({ monitorId: id, name: `Site ${id}`, publicId: `site-${id}` }),
      policy: aPolicy(),
      dependsOn: [ROOT],
    });
  }
  const world = aCheckResultWorld({ monitors: lookup });
  const input = (monitorId: number, status: CheckStatus, minute: number): RecordCheckResultInput => ({
    monitorId,
    organizationId: 1,
    customerId: 2,
    location: 'eu',
    intervalMs: 60_000,
    result: aResult(status, at(minute)),
  });
  const openIncidents = () => [...world.incidents.rows.values()].filter((i) => i.isOpen).map((i) => i.monitorId);
  return { ...world, input, openIncidents };
}

describe('RecordCheckResult with dependencies: one incident for one root cause', () => {
  it('a root and its dependents failing in one batch, dependents first: one incident, its message counting them', async () => {
    const { useCase, input, events, states, openIncidents } = aDependentsWorld();
    await useCase.executeMany([...DEPENDENTS.map((id) => input(id, 'down', 0)), input(ROOT, 'down', 0)], new FakeTransaction());
    expect(openIncidents()).to.deep.equal([ROOT]);
    expect(DEPENDENTS.map((id) => states.rows.get(id)!.dependencyRootId)).to.deep.equal([ROOT, ROOT, ROOT]);
    expect(events.published.map((e) => [e.kind, e.monitorId])).to.deep.equal([['incidentOpened', ROOT]]);
    expect(events.published[0]!.data.affectedMonitors).to.equal(3);
    expect(events.published[0]!.summary).to.equal('Server is down; 3 monitors depending on it are affected');
  });

  it('dependents failing after their root opened join it silently', async () => {
    const { useCase, input, events, openIncidents } = aDependentsWorld();
    await useCase.executeMany([input(ROOT, 'down', 0)], new FakeTransaction());
    await useCase.executeMany(
      DEPENDENTS.map((id) => input(id, 'down', 1)),
      new FakeTransaction(),
    );
    expect(openIncidents()).to.deep.equal([ROOT]);
    expect(events.published.map((e) => e.kind)).to.deep.equal(['incidentOpened']);
    expect(events.published[0]!.data).not.to.have.property('affectedMonitors');
  });

  it('the root recovering first: its held monitors are checked again at once; one still down opens at that result', async () => {
    const { useCase, input, events, states, openIncidents, clock } = aDependentsWorld();
    await useCase.executeMany([input(ROOT, 'down', 0), ...DEPENDENTS.map((id) => input(id, 'down', 0))], new FakeTransaction());
    await useCase.executeMany([input(9, 'up', 1)], new FakeTransaction());
    expect(states.rows.get(9)!.dependencyRootId).to.equal(null);
    const recovered = await useCase.executeMany([input(ROOT, 'up', 2)], new FakeTransaction());
    expect(recovered.recheck).to.deep.equal([8, 10].map((monitorId) => ({ monitorId, at: clock.now() })));
    expect(openIncidents()).to.deep.equal([]);
    // The rechecks: 10 recovered with its root, 8 stays down and needs no new confirmation.
    await useCase.executeMany([input(8, 'down', 3), input(10, 'up', 3)], new FakeTransaction());
    expect(openIncidents()).to.deep.equal([8]);
    expect(events.published.map((e) => [e.kind, e.monitorId])).to.deep.equal([
      ['incidentOpened', ROOT],
      ['incidentResolved', ROOT],
      ['incidentOpened', 8],
    ]);
    expect(states.rows.get(8)!.dependencyRootId).to.equal(null);
  });

  it('a dependent held while its root was only being confirmed alerts at once when the root turns out up', async () => {
    const { useCase, input, events, states, openIncidents } = aDependentsWorld(aPolicy({ consecutiveChecks: 2 }));
    await useCase.executeMany([input(ROOT, 'down', 0), input(8, 'down', 0)], new FakeTransaction());
    expect(openIncidents()).to.deep.equal([], 'the root is being confirmed down: the dependent waits for it');
    expect(states.rows.get(8)!.dependencyRootId).to.equal(ROOT);
    expect((await useCase.executeMany([input(ROOT, 'up', 1)], new FakeTransaction())).recheck.map((r) => r.monitorId)).to.deep.equal([8]);
    await useCase.executeMany([input(8, 'down', 2)], new FakeTransaction());
    expect(openIncidents()).to.deep.equal([8]);
    expect(events.published.map((e) => [e.kind, e.monitorId])).to.deep.equal([['incidentOpened', 8]]);
  });

  it('a dependent whose root is up alerts on its own, as any monitor', async () => {
    const { useCase, input, openIncidents } = aDependentsWorld();
    await useCase.executeMany([input(ROOT, 'up', 0)], new FakeTransaction());
    await useCase.executeMany([input(8, 'down', 1)], new FakeTransaction());
    expect(openIncidents()).to.deep.equal([8]);
  });
});
