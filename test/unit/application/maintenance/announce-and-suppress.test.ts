import { expect } from 'chai';
import { AnnounceMaintenance } from '../../../../src/application/maintenance/announce-maintenance';
import { MaintenanceSuppression } from '../../../../src/application/maintenance/maintenance-suppression';
import { AssetMaintenance } from '../../../../src/application/maintenance/asset-maintenance';
import { MaintenanceWindow } from '../../../../src/domain/maintenance/maintenance-window';
import { ManualClock } from '../../../support/manual-clock';
import { immediateTransactions } from '../../../support/fakes/shared-fakes';
import {
  FakeMaintenanceAnnouncements,
  FakeMaintenanceEvents,
  FakeMaintenanceTargets,
  FakeMaintenanceWindows,
  FakeRecurrence,
} from '../../../support/fakes/maintenance-fakes';

const HOUR = 3600_000;
const aWindow = (overrides: Partial<ConstructorParameters<typeof MaintenanceWindow>[0]> = {}) =>
  MaintenanceWindow.create(
    {
      publicId: '30000000-0000-4000-8000-000000000001',
      organizationId: 1,
      customerId: 3,
      title: 'Nightly',
      description: null,
      startTime: new Date('2026-06-01T02:00:00Z'),
      endTime: new Date('2026-06-01T03:00:00Z'),
      timezone: 'UTC',
      rrule: 'FREQ=DAILY',
      targets: [{ type: 'monitor', id: 7 }],
      suppressAlerts: true,
      excludeFromUptime: false,
      ...overrides,
    },
    new Date('2026-05-01T00:00:00Z'),
  );

function setup() {
  const clock = new ManualClock('2026-06-01T01:59:00Z');
  const windows = new FakeMaintenanceWindows();
  windows.monitors.set(7, { monitorId: 7, publicId: 'm-7', customerId: 3, organizationId: 1 });
  const targets = new FakeMaintenanceTargets().add('monitor', { id: 7, publicId: 'm-7', customerId: 3 });
  const events = new FakeMaintenanceEvents();
  const ledger = new FakeMaintenanceAnnouncements();
  const expander = new FakeRecurrence();
  const announcerOn = (sharedLedger = ledger) =>
    new AnnounceMaintenance(windows, targets, sharedLedger, events, expander, immediateTransactions, clock, { lookbackMs: 24 * HOUR });
  return { clock, windows, events, announcerOn, announcer: announcerOn(), suppression: new MaintenanceSuppression(windows, expander) };
}

describe('maintenance announcements', () => {
  it('announces each start and end once per occurrence, however often and by however many workers it runs', async () => {
    const { clock, windows, events, announcer, announcerOn } = setup();
    await windows.add(aWindow());
    const second = announcerOn();
    expect(await announcer.execute()).to.deep.equal({ started: 0, ended: 0 });
    clock.set('2026-06-01T02:00:30Z');
    expect(await announcer.execute()).to.deep.equal({ started: 1, ended: 0 });
    expect(await second.execute()).to.deep.equal({ started: 0, ended: 0 });
    clock.set('2026-06-01T03:00:00Z');
    await announcer.execute();
    await second.execute();
    clock.set('2026-06-02T03:30:00Z');
    await announcer.execute();
    expect(events.published.map((e) => `${e.kind}@${e.occurrence.start.toISOString()}`)).to.deep.equal([
      'maintenance.started@2026-06-01T02:00:00.000Z',
      'maintenance.ended@2026-06-01T02:00:00.000Z',
      'maintenance.started@2026-06-02T02:00:00.000Z',
      'maintenance.ended@2026-06-02T02:00:00.000Z',
    ]);
    expect(events.published[0]!.targets).to.deep.equal([{ type: 'monitor', id: 'm-7' }]);
  });

  it('does not announce occurrences that were over before the window was created', async () => {
    const { clock, windows, events, announcer } = setup();
    clock.set('2026-06-01T05:00:00Z');
    // Created after its only occurrence was over (a window's creation time is its own).
    const late = new MaintenanceWindow({ ...aWindow({ rrule: null }), createdAt: new Date('2026-06-01T04:00:00Z') });
    await windows.add(late);
    await announcer.execute();
    expect(events.published).to.deep.equal([]);
  });
});

describe("maintenance suppression (the alert rules' MaintenanceWindows port)", () => {
  it('suppresses a covered monitor only while an occurrence of a suppressing window runs', async () => {
    const { windows, suppression } = setup();
    await windows.add(aWindow());
    expect(await suppression.isSuppressed(7, new Date('2026-06-03T02:30:00Z'))).to.equal(true);
    expect(await suppression.isSuppressed(7, new Date('2026-06-03T03:00:00Z'))).to.equal(false);
    expect(await suppression.isSuppressed(8, new Date('2026-06-03T02:30:00Z'))).to.equal(false);
  });

  it('does not suppress through a window that only informs', async () => {
    const { windows, suppression } = setup();
    await windows.add(aWindow({ suppressAlerts: false, targets: [{ type: 'customer', id: 3 }] }));
    expect(await suppression.isSuppressed(7, new Date('2026-06-03T02:30:00Z'))).to.equal(false);
  });
});

describe('maintenance of watched customer IPs and domains', () => {
  it('silences an IP named by a window, or through its customer, only while an occurrence runs', async () => {
    const { windows } = setup();
    windows.assets.set('customerIp:5', { organizationId: 1, customerId: 3 });
    windows.assets.set('customerDomain:5', { organizationId: 1, customerId: 4 });
    const assets = new AssetMaintenance(windows, new FakeRecurrence());
    await windows.add(aWindow({ targets: [{ type: 'customerIp', id: 5 }] }));
    expect(await assets.isSuppressed({ type: 'customerIp', id: 5 }, new Date('2026-06-03T02:30:00Z'))).to.equal(true);
    expect(await assets.isSuppressed({ type: 'customerIp', id: 5 }, new Date('2026-06-03T04:00:00Z'))).to.equal(false);
    expect(await assets.isSuppressed({ type: 'customerDomain', id: 5 }, new Date('2026-06-03T02:30:00Z'))).to.equal(false);
    await windows.add(aWindow({ publicId: '30000000-0000-4000-8000-000000000002', targets: [{ type: 'customer', id: 4 }] }));
    expect(await assets.isSuppressed({ type: 'customerDomain', id: 5 }, new Date('2026-06-03T02:30:00Z'))).to.equal(true);
  });
});
