import { expect } from 'chai';
import { MaintenanceWindow, type MaintenanceWindowProps } from '../../../../src/domain/maintenance/maintenance-window';
import { nextOccurrence, occurrenceAt, occurrencesBetween } from '../../../../src/domain/maintenance/occurrences';
import { excludedSpans, isInMaintenance, suppressesAlerts } from '../../../../src/domain/maintenance/maintenance-status';
import { codeOf } from '../../../support/expect-app-error';
import { FakeRecurrence } from '../../../support/fakes/maintenance-fakes';

const at = (iso: string) => new Date(iso);

const daily = new FakeRecurrence();

const aWindow = (overrides: Partial<MaintenanceWindowProps> = {}) =>
  new MaintenanceWindow({
    id: 1,
    publicId: '00000000-0000-4000-8000-000000000001',
    organizationId: 1,
    customerId: null,
    title: 'Upgrade',
    description: null,
    startTime: at('2026-06-01T02:00:00Z'),
    endTime: at('2026-06-01T03:00:00Z'),
    timezone: 'UTC',
    rrule: null,
    targets: [{ type: 'monitor', id: 7 }],
    suppressAlerts: true,
    excludeFromUptime: false,
    createdAt: at('2026-05-01T00:00:00Z'),
    updatedAt: at('2026-05-01T00:00:00Z'),
    version: 1,
    ...overrides,
  });
const monitor = { monitorId: 7, customerId: 3 };

describe('maintenance window', () => {
  it('refuses an end that is not after the start, on create and on change', () => {
    const props = { ...aWindow(), startTime: at('2026-06-01T03:00:00Z'), endTime: at('2026-06-01T03:00:00Z') };
    expect(codeOf(() => MaintenanceWindow.create(props, at('2026-05-01T00:00:00Z')))).to.equal('endTimeBeforeStartTime');
    const window = aWindow();
    expect(codeOf(() => window.change({ endTime: at('2026-06-01T01:00:00Z') }, at('2026-05-02T00:00:00Z')))).to.equal(
      'endTimeBeforeStartTime',
    );
    expect(window.endTime.toISOString()).to.equal('2026-06-01T03:00:00.000Z');
  });

  it('recognizes an equal definition with targets in another order, and website as monitor', () => {
    const window = aWindow({
      targets: [
        { type: 'monitor', id: 7 },
        { type: 'customer', id: 3 },
      ],
    });
    const same = {
      ...window,
      targets: [
        { type: 'customer' as const, id: 3 },
        { type: 'website' as const, id: 7 },
      ],
    };
    expect(window.sameDefinition(same)).to.equal(true);
    expect(window.sameDefinition({ ...same, title: 'Other' })).to.equal(false);
    expect(window.sameDefinition({ ...same, targets: [{ type: 'customer', id: 3 }] })).to.equal(false);
  });

  it('changes through its methods: a change keeps the span rule and stamps the time; new targets bring their owner', () => {
    const window = aWindow();
    const now = at('2026-05-03T00:00:00Z');
    window.change({ title: 'Kernel updates', suppressAlerts: false }, now);
    expect(window).to.include({ title: 'Kernel updates', suppressAlerts: false, customerId: null, updatedAt: now });
    window.retarget([{ type: 'customer', id: 4 }], 4, at('2026-05-04T00:00:00Z'));
    expect(window.targets).to.deep.equal([{ type: 'customer', id: 4 }]);
    expect(window.customerId).to.equal(4);
    expect(window.coversMonitor(monitor)).to.equal(false);
    window.retarget(
      [
        { type: 'monitor', id: 7 },
        { type: 'customer', id: 4 },
      ],
      null,
      at('2026-05-05T00:00:00Z'),
    );
    expect(window.customerId, 'targets of two customers: the organization owns it').to.equal(null);
    expect(window.updatedAt).to.deep.equal(at('2026-05-05T00:00:00Z'));
  });

  it('covers a monitor named directly or through its customer, and nothing else', () => {
    expect(aWindow().coversMonitor(monitor)).to.equal(true);
    expect(aWindow({ targets: [{ type: 'customer', id: 3 }] }).coversMonitor(monitor)).to.equal(true);
    expect(
      aWindow({
        targets: [
          { type: 'customer', id: 4 },
          { type: 'customerIp', id: 7 },
        ],
      }).coversMonitor(monitor),
    ).to.equal(false);
  });
});

describe('maintenance occurrences', () => {
  it('gives a single window once, when it overlaps the range (end exclusive)', () => {
    const window = aWindow();
    expect(occurrencesBetween(window, at('2026-06-01T00:00:00Z'), at('2026-06-02T00:00:00Z'), daily)).to.have.length(1);
    expect(occurrencesBetween(window, at('2026-06-01T03:00:00Z'), at('2026-06-02T00:00:00Z'), daily)).to.deep.equal([]);
  });

  it('repeats a series, each occurrence as long as the first, including one that began before the range', () => {
    const window = aWindow({ rrule: 'FREQ=DAILY' });
    const found = occurrencesBetween(window, at('2026-06-03T02:30:00Z'), at('2026-06-05T02:00:00Z'), daily);
    expect(found.map((o) => [o.start.toISOString(), o.end.toISOString()])).to.deep.equal([
      ['2026-06-03T02:00:00.000Z', '2026-06-03T03:00:00.000Z'],
      ['2026-06-04T02:00:00.000Z', '2026-06-04T03:00:00.000Z'],
    ]);
  });

  it('answers the occurrence running at an instant, start inclusive and end exclusive', () => {
    const window = aWindow({ rrule: 'FREQ=DAILY' });
    expect(occurrenceAt(window, at('2026-06-09T02:00:00Z'), daily)?.start.toISOString()).to.equal('2026-06-09T02:00:00.000Z');
    expect(occurrenceAt(window, at('2026-06-09T03:00:00Z'), daily)).to.equal(null);
    expect(occurrenceAt(window, at('2026-05-31T02:30:00Z'), daily)).to.equal(null);
    expect(nextOccurrence(window, at('2026-06-09T02:30:00Z'), daily)?.start.toISOString()).to.equal('2026-06-10T02:00:00.000Z');
  });
});

describe('maintenance status of a monitor', () => {
  it('is in maintenance only while a covering window runs', () => {
    const windows = [
      aWindow(),
      aWindow({ targets: [{ type: 'monitor', id: 8 }], startTime: at('2026-06-01T05:00:00Z'), endTime: at('2026-06-01T06:00:00Z') }),
    ];
    expect(isInMaintenance(windows, monitor, at('2026-06-01T02:59:59Z'), daily)).to.equal(true);
    expect(isInMaintenance(windows, monitor, at('2026-06-01T05:30:00Z'), daily)).to.equal(false);
  });

  it('suppresses alerts only through a window that suppresses them', () => {
    const informative = aWindow({ suppressAlerts: false });
    expect(suppressesAlerts([informative], monitor, at('2026-06-01T02:30:00Z'), daily)).to.equal(false);
    expect(suppressesAlerts([informative, aWindow()], monitor, at('2026-06-01T02:30:00Z'), daily)).to.equal(true);
    expect(suppressesAlerts([aWindow()], monitor, at('2026-06-01T03:00:00Z'), daily)).to.equal(false);
  });

  it('leaves out of uptime the merged, clipped spans of windows that exclude it', () => {
    const windows = [
      aWindow({ excludeFromUptime: true }),
      aWindow({ excludeFromUptime: true, startTime: at('2026-06-01T02:30:00Z'), endTime: at('2026-06-01T04:00:00Z') }),
      aWindow({ excludeFromUptime: false, startTime: at('2026-06-01T05:00:00Z'), endTime: at('2026-06-01T06:00:00Z') }),
    ];
    const spans = excludedSpans(windows, monitor, at('2026-06-01T02:15:00Z'), at('2026-06-01T12:00:00Z'), (w) =>
      occurrencesBetween(w, at('2026-06-01T02:15:00Z'), at('2026-06-01T12:00:00Z'), daily),
    );
    expect(spans.map((o) => [o.start.toISOString(), o.end.toISOString()])).to.deep.equal([
      ['2026-06-01T02:15:00.000Z', '2026-06-01T04:00:00.000Z'],
    ]);
  });
});
