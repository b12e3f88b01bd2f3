import { expect } from 'chai';
import { ListMonitorOverview } from '../../../../src/application/overview/list-monitor-overview';
import type { MaintainedMonitor, MaintenanceNow, OverviewMonitor, OverviewReader } from '../../../../src/application/overview/ports';
import { currentStateOf } from '../../../../src/domain/incidents/current-state';
import { AppError } from '../../../../src/domain/shared/app-error';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';

const seen = { paused: false, reported: true, incidentOpen: false, silentLocations: [], undecidedSince: null, dependencyRoot: null };

/** A monitor as the reader hands it on; its listing is opaque to the use case. */
function aMonitor(id: number, facts: Partial<typeof seen> = {}, lastStatus: OverviewMonitor['lastStatus'] = 'up'): OverviewMonitor {
  const all = { ...seen, ...facts };
  return {
    id,
    publicId: `m-${id}`,
    customerId: 7,
    paused: all.paused,
    current: currentStateOf(all),
    lastStatus,
    listing: `{"id":${id},"name":"Shop ${id}"}`,
  };
}

class Monitors implements Pick<OverviewReader, 'page'> {
  constructor(private readonly items: OverviewMonitor[] | null) {}
  async page() {
    return this.items && { items: this.items, total: this.items.length };
  }
}

class Windows implements MaintenanceNow {
  asked: MaintainedMonitor[] = [];
  constructor(private readonly running: string[]) {}
  async inMaintenance(_organizationId: number, monitors: readonly MaintainedMonitor[]) {
    this.asked.push(...monitors);
    return new Set(monitors.map((m) => m.publicId).filter((id) => this.running.includes(id)));
  }
}

const list = (reader: Pick<OverviewReader, 'page'>, windows = new Windows([])) =>
  new ListMonitorOverview(reader as OverviewReader, windows, new ManualClock()).execute(anActor().build(), {
    filter: {},
    page: { page: 1, perPage: 100 },
  });

describe('ListMonitorOverview', () => {
  it('decides each monitor’s overview state from its facts and the running maintenance windows', async () => {
    const monitors = [
      aMonitor(1),
      aMonitor(2, {}, 'degraded'),
      aMonitor(3, { incidentOpen: true }, 'down'),
      aMonitor(4, { reported: false }, null),
      aMonitor(5, { paused: true }),
      aMonitor(6, { incidentOpen: true }, 'down'),
    ];
    const { items, total } = await list(new Monitors(monitors), new Windows(['m-6']));
    expect(total).to.equal(6);
    expect(items.map((item) => [item.publicId, item.state, item.inMaintenance])).to.deep.equal([
      ['m-1', 'up', false],
      ['m-2', 'degraded', false],
      ['m-3', 'down', false],
      ['m-4', 'unknown', false],
      ['m-5', 'paused', false],
      ['m-6', 'maintenance', true],
    ]);
  });

  it('hands each listing on untouched and asks the maintenance context only about monitors that are not paused', async () => {
    const windows = new Windows([]);
    const { items } = await list(new Monitors([aMonitor(1), aMonitor(2, { paused: true })]), windows);
    expect(items.map((item) => item.listing)).to.deep.equal(['{"id":1,"name":"Shop 1"}', '{"id":2,"name":"Shop 2"}']);
    expect(windows.asked).to.deep.equal([{ monitorId: 1, publicId: 'm-1', customerId: 7 }]);
  });

  it('answers customerNotFound when the customer filter names no visible customer', async () => {
    const failure = await list(new Monitors(null)).catch((error: unknown) => error);
    expect(failure).to.be.instanceOf(AppError).with.property('code', 'customerNotFound');
  });
});
