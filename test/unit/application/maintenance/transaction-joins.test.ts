import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';
import { aMaintenanceWorld, MAINTENANCE_MONITOR as MONITOR } from '../../../support/builders/maintenance';

/** Maintenance use cases hand the runner's transaction to their lock and writes (docs/architecture.md). */
describe('maintenance use cases: writes join the transaction they run in', () => {
  it('create locks, reads, inserts and publishes in one transaction; update saves in its own; an announcement claims and publishes in one', async () => {
    const tx = recordedTransactions();
    const { clock, windows, events, ledger, create, update, announcer } = aMaintenanceWorld({ tx });

    const { view } = await create.execute(anActor().build(), {
      title: 'Database upgrade',
      description: null,
      startTime: new Date('2026-06-01T02:00:00Z'),
      endTime: new Date('2026-06-01T03:00:00Z'),
      timezone: 'UTC',
      rrule: null,
      targets: [{ type: 'website', id: MONITOR }],
      suppressAlerts: true,
      excludeFromUptime: false,
    });
    const created = tx.handed[0];
    expect(windows.joined).to.deep.equal([
      ['lockCreates', created],
      ['list', created],
      ['add', created],
    ]);
    expect(events.joined).to.deep.equal([['publish', created]]);

    windows.joined.length = 0;
    await update.execute(anActor().build(), { id: view.window.publicId, change: { title: 'Longer' } });
    const updated = tx.handed[1];
    expect(updated).not.to.equal(created);
    expect(windows.joined).to.deep.equal([['save', updated]]);

    events.joined.length = 0;
    clock.set('2026-06-01T02:00:30Z');
    expect(await announcer.execute()).to.deep.equal({ started: 1, ended: 0 });
    const announced = tx.handed.at(-1);
    expect(ledger.joined).to.deep.equal([['claim', announced]]);
    expect(events.joined).to.deep.equal([['publish', announced]]);
  });
});
