import { expect } from 'chai';
import { GetUptimeStats } from '../../../../src/application/results/get-uptime-stats';
import { GetCheckHistory } from '../../../../src/application/results/get-check-history';
import { MaintainResultStorage } from '../../../../src/application/results/maintain-result-storage';
import type { ResultMaintenance } from '../../../../src/application/results/ports';
import type { Actor } from '../../../../src/application/shared/actor';
import type { AppError } from '../../../../src/domain/shared/app-error';
import { FakeCoverage, FakeMonitors, FakeResults, aMonitorRef } from '../../../support/fakes/incidents-fakes';

const now = new Date('2026-11-22T10:30:00Z');
const clock = { now: () => now };
const HOUR = 3_600_000;
const actor = (organizationId = 1, customerId: number | null = null) => ({ scope: { organizationId, customerId }, role: 'readonly' } as Actor);
const codeOf = async (promise: Promise<unknown>) => promise.then(() => undefined, (error: AppError) => error.code);

describe('GetUptimeStats', () => {
  it('combines rollups and raw tails, and clips the period to the monitor\'s creation', async () => {
    const coverage = new FakeCoverage({ from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-22T09:00:00Z') });
    const monitors = new FakeMonitors(aMonitorRef({ createdAt: new Date('2026-11-21T20:00:00Z') }));
    const stats = await new GetUptimeStats(monitors, coverage, clock).execute(actor(), { websiteId: '7', period: '7d' });
    expect(coverage.calls.map(([source, r]) => [source, r.from.toISOString(), r.to.toISOString()])).to.deep.equal([
      ['rollup', '2026-11-21T20:00:00.000Z', '2026-11-22T09:00:00.000Z'],
      ['raw', '2026-11-22T09:00:00.000Z', '2026-11-22T10:30:00.000Z'],
    ]);
    expect(stats).to.include({ period: '7d', uptimePercent: 100, unknownPercent: 0 });
    expect(stats.from.toISOString()).to.equal('2026-11-15T10:30:00.000Z');
  });

  it('takes from/to over period and hides other tenants\' websites', async () => {
    const coverage = new FakeCoverage();
    const useCase = new GetUptimeStats(new FakeMonitors(), coverage, clock);
    const stats = await useCase.execute(actor(), { websiteId: '7', period: '30d', from: '2026-11-22T08:00:00Z', to: '2026-11-22T09:00:00Z' });
    expect(stats.period).to.equal('range');
    expect(coverage.calls).to.have.length(1);
    expect(await codeOf(useCase.execute(actor(99), { websiteId: '7' }))).to.equal('websiteNotFound');
    expect(await codeOf(useCase.execute(actor(1, 5), { websiteId: '7' }))).to.equal('websiteNotFound');
    expect(await codeOf(useCase.execute(actor(), { websiteId: '7', from: 'x' }))).to.equal('invalidDateRange');
  });
});

describe('GetCheckHistory', () => {
  it('answers invalidDateRange before anything else, then websiteNotFound out of scope', async () => {
    const useCase = new GetCheckHistory(new FakeMonitors(), new FakeResults(), clock);
    expect(await codeOf(useCase.execute(actor(99), { websiteId: '7', from: 'x', page: 1, perPage: 10 }))).to.equal('invalidDateRange');
    expect(await codeOf(useCase.execute(actor(99), { websiteId: '7', page: 1, perPage: 10 }))).to.equal('websiteNotFound');
    expect((await useCase.execute(actor(), { websiteId: '7', page: 1, perPage: 10 })).total).to.equal(0);
  });
});

class FakeMaintenance implements ResultMaintenance {
  rolled: { from: Date; to: Date } | null = null;
  readonly hours: string[] = [];
  dropBefore: Date | null = null;
  purgeBefore: Date | null = null;
  async ensurePartitions() { return 4; }
  async dropPartitionsBefore(before: Date) { this.dropBefore = before; return []; }
  async rolledUp() { return this.rolled; }
  async rollUpHour(hour: Date, isFirst: boolean) {
    this.hours.push(hour.toISOString());
    const end = new Date(hour.getTime() + HOUR);
    this.rolled = isFirst ? { from: hour, to: end } : { from: this.rolled!.from, to: end };
  }
  async purgeRollupsBefore(before: Date) { this.purgeBefore = before; return 0; }
}

/** Screenshot retention: remembers the cut-off it was given. */
class FakeScreenshots {
  before: Date | null = null;
  async purgeBefore(before: Date) { this.before = before; return 2; }
}

describe('MaintainResultStorage', () => {
  const settings = { resultsRetentionDays: 1, rollupRetentionDays: 10, partitionsAheadDays: 3, settleMinutes: 15 };

  it('rolls every settled hour up in order, then continues where it stopped', async () => {
    const store = new FakeMaintenance();
    let at = new Date('2026-11-22T10:14:00Z');
    const useCase = new MaintainResultStorage(store, settings, { now: () => at }, new FakeScreenshots());
    const first = await useCase.execute();
    expect(first.hoursRolledUp).to.equal(23);
    expect(store.hours[0]).to.equal('2026-11-21T10:00:00.000Z');
    expect(store.hours.at(-1)).to.equal('2026-11-22T08:00:00.000Z');
    at = new Date('2026-11-22T10:16:00Z');
    expect((await useCase.execute()).hoursRolledUp).to.equal(1);
    expect(store.hours.at(-1)).to.equal('2026-11-22T09:00:00.000Z');
  });

  it('drops raw days only once rolled up, and purges rollups past their retention', async () => {
    const store = new FakeMaintenance();
    store.rolled = { from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-05T00:00:00Z') };
    const screenshots = new FakeScreenshots();
    const useCase = new MaintainResultStorage(store, settings, clock, screenshots);
    expect((await useCase.execute()).screenshotsPurged).to.equal(2);
    expect(store.dropBefore!.toISOString()).to.equal('2026-11-21T10:30:00.000Z');
    expect(screenshots.before!.toISOString(), 'screenshots live as long as raw results').to.equal('2026-11-21T10:30:00.000Z');
    expect(store.purgeBefore!.toISOString()).to.equal('2026-11-12T10:00:00.000Z');
    const behind = new FakeMaintenance();
    behind.rollUpHour = async () => {};
    behind.rolled = { from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-05T00:00:00Z') };
    await new MaintainResultStorage(behind, settings, clock, new FakeScreenshots()).execute();
    expect(behind.dropBefore!.toISOString()).to.equal('2026-11-05T00:00:00.000Z');
  });
});
