import { expect } from 'chai';
import type { NewWindowInput } from '../../../../src/application/maintenance/create-maintenance-window';
import { anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';
import { aMaintenanceWorld, MAINTENANCE_MONITOR as MONITOR } from '../../../support/builders/maintenance';

const OTHER_MONITOR = '10000000-0000-4000-8000-000000000008';
const CUSTOMER = '20000000-0000-4000-8000-000000000003';

/** Monitors 7 (customer 3) and 8 (customer 4), customer 3, and customer 9 of another organization. */
const setup = () =>
  aMaintenanceWorld().monitor(8, OTHER_MONITOR, 4).customer(3, CUSTOMER).customer(9, '20000000-0000-4000-8000-000000000009', 2);

const body = (overrides: Partial<NewWindowInput> = {}): NewWindowInput => ({
  title: 'Database upgrade',
  description: null,
  startTime: new Date('2026-06-02T02:00:00Z'),
  endTime: new Date('2026-06-02T04:00:00Z'),
  timezone: 'UTC',
  rrule: null,
  targets: [{ type: 'website', id: MONITOR }],
  suppressAlerts: true,
  excludeFromUptime: false,
  ...overrides,
});
const admin = anActor().build();

describe('maintenance windows: create', () => {
  it('stores the window with its targets by public id and announces it once', async () => {
    const { create, events } = setup();
    const { view, created } = await create.execute(admin, body());
    expect(created).to.equal(true);
    expect(view.targets).to.deep.equal([{ type: 'website', id: MONITOR }]);
    expect(view.window.customerId).to.equal(3);
    expect(view.nextOccurrence?.start.toISOString()).to.equal('2026-06-02T02:00:00.000Z');
    expect(events.published.map((e) => [e.kind, e.windowId])).to.deep.equal([['maintenance.scheduled', view.window.publicId]]);
    const byLegacyId = await create.execute(admin, body({ title: 'By legacy id', targets: [{ type: 'monitor', id: '7' }] }));
    expect(events.published[1]!.targets).to.deep.equal([{ type: 'monitor', id: MONITOR }]);
    expect(byLegacyId.view.targets).to.deep.equal([{ type: 'monitor', id: MONITOR }]);
  });

  it('answers the existing window for an equal body and announces nothing again', async () => {
    const { create, events, windows } = setup();
    const first = await create.execute(
      admin,
      body({
        targets: [
          { type: 'customer', id: CUSTOMER },
          { type: 'website', id: MONITOR },
        ],
      }),
    );
    const again = await create.execute(
      admin,
      body({
        targets: [
          { type: 'monitor', id: '7' },
          { type: 'customer', id: CUSTOMER },
        ],
      }),
    );
    expect(again.created).to.equal(false);
    expect(again.view.window.publicId).to.equal(first.view.window.publicId);
    expect(windows.rows.size).to.equal(1);
    expect(events.published).to.have.length(1);
    expect((await create.execute(admin, body({ title: 'Other' }))).created).to.equal(true);
  });

  it("refuses a target without an id, and invisible targets with their kind's code", async () => {
    const { create, windows } = setup();
    expect(await codeOf(create.execute(admin, body({ targets: [{ type: 'customer' }] })))).to.equal('missingTargetId');
    expect(await codeOf(create.execute(admin, body({ targets: [{ type: 'customer', id: '9' }] })))).to.equal('customerNotFound');
    expect(await codeOf(create.execute(admin, body({ targets: [{ type: 'customerIp', id: '1' }] })))).to.equal('customerIpNotFound');
    expect(await codeOf(create.execute(admin, body({ targets: [{ type: 'customerDomain', id: '1' }] })))).to.equal(
      'customerDomainNotFound',
    );
    expect(await codeOf(create.execute(admin, body({ endTime: new Date('2026-06-02T02:00:00Z') })))).to.equal('endTimeBeforeStartTime');
    expect(await codeOf(create.execute(admin, body({ rrule: 'FREQ=SOMETIMES' })))).to.equal('validationFailed');
    expect(await codeOf(create.execute(anActor().withRole('readonly').build(), body()))).to.equal('roleForbidden');
    expect(windows.rows.size).to.equal(0);
  });

  it("confines a customer-scoped caller to its customer's targets and windows", async () => {
    const { create, get, list } = setup();
    const customerCaller = anActor().forCustomer(3).build();
    expect(await codeOf(create.execute(customerCaller, body({ targets: [{ type: 'website', id: OTHER_MONITOR }] })))).to.equal(
      'websiteNotFound',
    );
    const own = await create.execute(customerCaller, body());
    const foreign = await create.execute(admin, body({ targets: [{ type: 'website', id: OTHER_MONITOR }] }));
    expect((await list.execute(customerCaller, {})).map((v) => v.window.publicId)).to.deep.equal([own.view.window.publicId]);
    expect(await codeOf(get.execute(customerCaller, { id: foreign.view.window.publicId }))).to.equal('maintenanceWindowNotFound');
    expect((await list.execute(admin, {})).length).to.equal(2);
  });
});

describe('maintenance windows: read, change, delete', () => {
  it('lists the windows covering one website, directly or through its customer', async () => {
    const { create, list } = setup();
    const direct = await create.execute(admin, body());
    const throughCustomer = await create.execute(admin, body({ title: 'Customer-wide', targets: [{ type: 'customer', id: CUSTOMER }] }));
    await create.execute(admin, body({ title: 'Elsewhere', targets: [{ type: 'website', id: OTHER_MONITOR }] }));
    const ids = (await list.execute(admin, { websiteId: MONITOR })).map((v) => v.window.publicId);
    expect(ids.sort()).to.deep.equal([direct.view.window.publicId, throughCustomer.view.window.publicId].sort());
    expect(await codeOf(list.execute(admin, { websiteId: 'nope' }))).to.equal('websiteNotFound');
  });

  it('answers maintenanceWindowTargetMissing for a window whose monitor was deleted, and still lets it be deleted', async () => {
    const { create, get, remove, targets, windows } = setup();
    const { view } = await create.execute(admin, body());
    targets.delete('monitor', 7);
    expect(await codeOf(get.execute(admin, { id: view.window.publicId }))).to.equal('maintenanceWindowTargetMissing');
    await remove.execute(admin, { id: view.window.publicId });
    expect(windows.rows.size).to.equal(0);
    expect(await codeOf(remove.execute(admin, { id: view.window.publicId }))).to.equal('maintenanceWindowNotFound');
  });

  it('changes fields, keeps the span rule and refuses a stale write', async () => {
    const { create, update, windows } = setup();
    const { view } = await create.execute(admin, body());
    const id = view.window.publicId;
    const changed = await update.execute(admin, { id, change: { title: 'Longer', endTime: new Date('2026-06-02T06:00:00Z') } });
    expect([changed.window.title, changed.window.durationMs]).to.deep.equal(['Longer', 4 * 3600_000]);
    expect(await codeOf(update.execute(admin, { id, change: { startTime: new Date('2026-06-02T07:00:00Z') } }))).to.equal(
      'endTimeBeforeStartTime',
    );
    expect(await codeOf(update.execute(admin, { id: 'missing', change: { title: 'x' } }))).to.equal('maintenanceWindowNotFound');
    windows.versions.concurrentWriteOnNextSave = true;
    expect(await codeOf(update.execute(admin, { id, change: { title: 'Race' } }))).to.equal('conflict');
  });
});

describe('maintenance windows: checks and preview', () => {
  it('says whether a website is in maintenance now or at an instant', async () => {
    const { create, check, batch, clock } = setup();
    const { view } = await create.execute(admin, body({ targets: [{ type: 'customer', id: CUSTOMER }], excludeFromUptime: true }));
    expect((await check.execute(admin, { websiteId: MONITOR })).inMaintenance).to.equal(false);
    clock.set('2026-06-02T03:00:00Z');
    const now = await check.execute(admin, { websiteId: MONITOR });
    expect([now.inMaintenance, now.suppressAlerts, now.excludeFromUptime]).to.deep.equal([true, true, true]);
    expect(now.windows.map((w) => w.window.publicId)).to.deep.equal([view.window.publicId]);
    const many = await batch.execute(admin, { websiteIds: [MONITOR, OTHER_MONITOR, 'unknown'] });
    expect(many.results.map((r) => [r.websiteId, r.inMaintenance])).to.deep.equal([
      [MONITOR, true],
      [OTHER_MONITOR, false],
    ]);
    expect(many.notFound).to.deep.equal(['unknown']);
    expect(await codeOf(check.execute(anActor().forCustomer(4).build(), { websiteId: MONITOR }))).to.equal('websiteNotFound');
  });

  it('previews the occurrences of a series and refuses an empty span with invalidWindow', () => {
    const { preview } = setup();
    const spans = preview.execute({
      startTime: new Date('2026-06-02T02:00:00Z'),
      endTime: new Date('2026-06-02T03:00:00Z'),
      timezone: 'UTC',
      rrule: 'FREQ=DAILY',
      count: 3,
    });
    expect(spans.map((o) => o.start.toISOString())).to.deep.equal([
      '2026-06-02T02:00:00.000Z',
      '2026-06-03T02:00:00.000Z',
      '2026-06-04T02:00:00.000Z',
    ]);
    const t = new Date('2026-06-02T02:00:00Z');
    expect(codeOf(() => preview.execute({ startTime: t, endTime: t, timezone: 'UTC', rrule: null }))).to.equal('invalidWindow');
  });
});
