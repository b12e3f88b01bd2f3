import { expect } from 'chai';
import { AssetMaintenance } from '../../../../src/application/maintenance/asset-maintenance';
import { MaintenanceWindow } from '../../../../src/domain/maintenance/maintenance-window';
import { FakeRecurrence } from '../../../support/fakes/maintenance-fakes';
import { aMaintenanceWindow, aMaintenanceWorld, MAINTENANCE_MONITOR } from '../../../support/builders/maintenance';

const aWindow = aMaintenanceWindow;

const setup = () => aMaintenanceWorld({ now: '2026-06-01T01:59:00Z' });

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
    expect(events.published[0]!.targets).to.deep.equal([{ type: 'monitor', id: MAINTENANCE_MONITOR }]);
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
