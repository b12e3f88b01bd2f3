import { expect } from 'chai';
import { AnnounceMaintenance } from '../../../../src/application/maintenance/announce-maintenance';
import { CreateMaintenanceWindow } from '../../../../src/application/maintenance/create-maintenance-window';
import { UpdateMaintenanceWindow } from '../../../../src/application/maintenance/update-maintenance-window';
import { MaintenanceWindowViews } from '../../../../src/application/maintenance/window-view';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { recordedTransactions, sequentialIds } from '../../../support/fakes/shared-fakes';
import {
  FakeMaintenanceAnnouncements,
  FakeMaintenanceEvents,
  FakeMaintenanceTargets,
  FakeMaintenanceWindows,
  FakeRecurrence,
} from '../../../support/fakes/maintenance-fakes';

const MONITOR = '10000000-0000-4000-8000-000000000007';

/** Maintenance use cases hand the runner's transaction to their lock and writes (docs/architecture.md). */
describe('maintenance use cases: writes join the transaction they run in', () => {
  it('create locks, reads, inserts and publishes in one transaction; update saves in its own; an announcement claims and publishes in one', async () => {
    const clock = new ManualClock('2026-06-01T00:00:00Z');
    const windows = new FakeMaintenanceWindows();
    windows.monitors.set(7, { monitorId: 7, publicId: MONITOR, customerId: 3, organizationId: 1 });
    const targets = new FakeMaintenanceTargets().add('monitor', { id: 7, publicId: MONITOR, customerId: 3 });
    const events = new FakeMaintenanceEvents();
    const expander = new FakeRecurrence();
    const views = new MaintenanceWindowViews(targets, expander);
    const tx = recordedTransactions();
    const create = new CreateMaintenanceWindow(windows, targets, events, views, expander, tx, sequentialIds(), clock);
    const update = new UpdateMaintenanceWindow(windows, targets, views, expander, tx, clock);
    const ledger = new FakeMaintenanceAnnouncements();
    const announcer = new AnnounceMaintenance(windows, targets, ledger, events, expander, tx, clock, { lookbackMs: 24 * 3600_000 });

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
