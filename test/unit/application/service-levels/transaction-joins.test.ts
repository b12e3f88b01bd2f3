import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';
import { FakeServiceLevelCoverage } from '../../../support/fakes/service-levels-fakes';
import { anObjectiveMonitor, aServiceLevelsWorld } from '../../../support/builders/service-levels';

const NOW = new Date('2026-06-21T00:00:00Z');
const MIN = 60_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const monitor = anObjectiveMonitor({ createdAt: ago(60 * 24 * 60 * MIN) });

/** Service-level use cases hand the runner's transaction to their writes (docs/architecture.md). */
describe('service-level use cases: writes join the transaction they run in', () => {
  it('create inserts, update saves and a burn alert claims the state and publishes, each in the transaction it runs in', async () => {
    const tx = recordedTransactions();
    const coverage = new FakeServiceLevelCoverage([
      { monitorId: 1, from: ago(6 * 60 * MIN), to: ago(9 * MIN), good: true },
      { monitorId: 1, from: ago(9 * MIN), to: NOW, good: false },
    ]);
    const { clock, objectives, events, create, update, burnAlerts } = aServiceLevelsWorld({
      now: ago(7 * 24 * 60 * MIN),
      tx,
      monitors: [monitor],
      coverage,
    });
    const objective = await create.execute(anActor().build(), {
      name: 'Shop',
      target: 99,
      window: 'rolling7d',
      timezone: 'UTC',
      subject: { type: 'customer', customerId: '7' },
      alertsEnabled: true,
    });
    expect(objectives.joined).to.deep.equal([['add', tx.handed[0]]]);

    objectives.joined.length = 0;
    await update.execute(anActor().build(), {
      id: objective.publicId,
      change: { name: 'Shop EU' },
    });
    expect(objectives.joined).to.deep.equal([['save', tx.handed[1]]]);

    objectives.joined.length = 0;
    clock.set(NOW);
    expect(await burnAlerts.execute()).to.deep.include({ burning: 1 });
    const burning = tx.handed.at(-1);
    expect(objectives.joined).to.deep.equal([['claimBurn', burning]]);
    expect(events.joined).to.deep.equal([['publish', burning]]);
  });
});
