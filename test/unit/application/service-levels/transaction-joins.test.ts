import { expect } from 'chai';
import { CreateObjective } from '../../../../src/application/service-levels/create-objective';
import { EvaluateBurnAlerts } from '../../../../src/application/service-levels/evaluate-burn-alerts';
import { ObjectiveMeter } from '../../../../src/application/service-levels/objective-meter';
import { UpdateObjective } from '../../../../src/application/service-levels/update-objective';
import type { MonitorRef } from '../../../../src/application/results/ports';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { recordedTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import {
  FakeExclusions,
  FakeObjectives,
  FakeObjectiveSubjects,
  FakeServiceLevelCoverage,
  FakeServiceLevelEvents,
} from '../../../support/fakes/service-levels-fakes';

const NOW = new Date('2026-06-21T00:00:00Z');
const MIN = 60_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const monitor: MonitorRef = {
  monitorId: 1,
  publicId: '00000000-0000-4000-8000-000000000001',
  organizationId: 1,
  customerId: 7,
  name: 'm1',
  checkIntervalSeconds: 60,
  locations: ['eu'],
  createdAt: ago(60 * 24 * 60 * MIN),
};

/** Service-level use cases hand the runner's transaction to their writes (docs/architecture.md). */
describe('service-level use cases: writes join the transaction they run in', () => {
  it('create inserts, update saves and a burn alert claims the state and publishes, each in the transaction it runs in', async () => {
    const objectives = new FakeObjectives();
    const subjects = new FakeObjectiveSubjects([monitor]);
    const clock = new ManualClock(ago(7 * 24 * 60 * MIN));
    const tx = recordedTransactions();
    const objective = await new CreateObjective(objectives, subjects, tx, sequentialIds(), clock).execute(anActor().build(), {
      name: 'Shop',
      target: 99,
      window: 'rolling7d',
      timezone: 'UTC',
      subject: { type: 'customer', customerId: '7' },
      alertsEnabled: true,
    });
    expect(objectives.joined).to.deep.equal([['add', tx.handed[0]]]);

    objectives.joined.length = 0;
    await new UpdateObjective(objectives, subjects, tx, clock).execute(anActor().build(), {
      id: objective.publicId,
      change: { name: 'Shop EU' },
    });
    expect(objectives.joined).to.deep.equal([['save', tx.handed[1]]]);

    objectives.joined.length = 0;
    clock.set(NOW);
    const coverage = new FakeServiceLevelCoverage([
      { monitorId: 1, from: ago(6 * 60 * MIN), to: ago(9 * MIN), good: true },
      { monitorId: 1, from: ago(9 * MIN), to: NOW, good: false },
    ]);
    const events = new FakeServiceLevelEvents();
    const meter = new ObjectiveMeter(subjects, coverage, new FakeExclusions());
    expect(await new EvaluateBurnAlerts(objectives, meter, events, tx, clock).execute()).to.deep.include({ burning: 1 });
    const burning = tx.handed.at(-1);
    expect(objectives.joined).to.deep.equal([['claimBurn', burning]]);
    expect(events.joined).to.deep.equal([['publish', burning]]);
  });
});
