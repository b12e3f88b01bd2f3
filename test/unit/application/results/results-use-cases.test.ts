import { expect } from 'chai';
import { GetUptimeStats } from '../../../../src/application/results/get-uptime-stats';
import { GetCheckHistory } from '../../../../src/application/results/get-check-history';
import { MaintainResultStorage } from '../../../../src/application/results/maintain-result-storage';
import type { Screenshot } from '../../../../src/application/checks/ports';
import {
  FakeCoverage,
  FakeMonitorLookup,
  FakeResultMaintenance,
  FakeResults,
  FakeUptimeExclusions,
  aMonitorRef,
} from '../../../support/fakes/results-fakes';
import { FakeScreenshots } from '../../../support/fakes/checks-fakes';
import { ManualClock } from '../../../support/manual-clock';
import { anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';

const clock = new ManualClock('2026-11-22T10:30:00Z');
const actor = (organizationId = 1, customerId: number | null = null) => {
  const reader = anActor().withRole('readonly').inOrganization(organizationId);
  return (customerId === null ? reader : reader.forCustomer(customerId)).build();
};

describe('GetUptimeStats', () => {
  it("combines rollups and raw tails, and clips the period to the monitor's creation", async () => {
    const coverage = new FakeCoverage({ from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-22T09:00:00Z'), dailyTo: null });
    const monitors = new FakeMonitorLookup(aMonitorRef({ createdAt: new Date('2026-11-21T20:00:00Z') }));
    const stats = await new GetUptimeStats(monitors, coverage, clock).execute(actor(), { websiteId: '7', period: '7d' });
    expect(coverage.calls.map(([source, r]) => [source, r.from.toISOString(), r.to.toISOString()])).to.deep.equal([
      ['rollup', '2026-11-21T20:00:00.000Z', '2026-11-22T09:00:00.000Z'],
      ['raw', '2026-11-22T09:00:00.000Z', '2026-11-22T10:30:00.000Z'],
    ]);
    expect(stats).to.include({ period: '7d', uptimePercent: 100, unknownPercent: 0 });
    expect(stats.from.toISOString()).to.equal('2026-11-15T10:30:00.000Z');
  });

  it("takes from/to over period and hides other tenants' websites", async () => {
    const coverage = new FakeCoverage();
    const useCase = new GetUptimeStats(new FakeMonitorLookup(), coverage, clock);
    const stats = await useCase.execute(actor(), {
      websiteId: '7',
      period: '30d',
      from: '2026-11-22T08:00:00Z',
      to: '2026-11-22T09:00:00Z',
    });
    expect(stats.period).to.equal('range');
    expect(coverage.calls).to.have.length(1);
    expect(await codeOf(useCase.execute(actor(99), { websiteId: '7' }))).to.equal('websiteNotFound');
    expect(await codeOf(useCase.execute(actor(1, 5), { websiteId: '7' }))).to.equal('websiteNotFound');
    expect(await codeOf(useCase.execute(actor(), { websiteId: '7', from: 'x' }))).to.equal('invalidDateRange');
  });
});

describe('GetUptimeStats with maintenance left out', () => {
  it('neither reads nor counts the time of windows that exclude it from uptime', async () => {
    const coverage = new FakeCoverage();
    const exclusions = new FakeUptimeExclusions([
      { from: new Date('2026-11-22T08:30:00Z'), to: new Date('2026-11-22T09:00:00Z') },
      { from: new Date('2026-11-22T08:45:00Z'), to: new Date('2026-11-22T09:10:00Z') },
    ]);
    const stats = await new GetUptimeStats(new FakeMonitorLookup(), coverage, clock, exclusions).execute(actor(), {
      websiteId: '7',
      from: '2026-11-22T08:00:00Z',
      to: '2026-11-22T10:00:00Z',
    });
    expect(coverage.calls.map(([source, r]) => [source, r.from.toISOString(), r.to.toISOString()])).to.deep.equal([
      ['raw', '2026-11-22T08:00:00.000Z', '2026-11-22T08:30:00.000Z'],
      ['raw', '2026-11-22T09:10:00.000Z', '2026-11-22T10:00:00.000Z'],
    ]);
    expect(stats).to.include({ uptimePercent: 100, unknownPercent: 0 });
  });
});

describe('GetCheckHistory', () => {
  it('answers invalidDateRange before anything else, then websiteNotFound out of scope', async () => {
    const useCase = new GetCheckHistory(new FakeMonitorLookup(), new FakeResults(), clock);
    expect(await codeOf(useCase.execute(actor(99), { websiteId: '7', from: 'x', page: 1, perPage: 10 }))).to.equal('invalidDateRange');
    expect(await codeOf(useCase.execute(actor(99), { websiteId: '7', page: 1, perPage: 10 }))).to.equal('websiteNotFound');
    expect((await useCase.execute(actor(), { websiteId: '7', page: 1, perPage: 10 })).total).to.equal(0);
  });
});

/** A screenshot of monitor 7 taken at `takenAt`. */
const shotAt = (takenAt: string, n: number): Screenshot => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  monitorId: 7,
  organizationId: 1,
  takenAt: new Date(takenAt),
  png: new Uint8Array([0x89]),
});

describe('MaintainResultStorage', () => {
  const settings = {
    resultsRetentionDays: 1,
    rawHours: 6,
    rollupRetentionDays: 10,
    dailyRollupAfterDays: 8,
    partitionsAheadDays: 3,
    settleMinutes: 15,
  };

  it('rolls every settled hour up in order, then continues where it stopped', async () => {
    const store = new FakeResultMaintenance();
    const at = new ManualClock('2026-11-22T10:14:00Z');
    const useCase = new MaintainResultStorage(store, settings, at, new FakeScreenshots());
    const first = await useCase.execute();
    expect(first.hoursRolledUp).to.equal(23);
    expect(store.hours[0]).to.equal('2026-11-21T10:00:00.000Z');
    expect(store.hours.at(-1)).to.equal('2026-11-22T08:00:00.000Z');
    at.set('2026-11-22T10:16:00Z');
    expect((await useCase.execute()).hoursRolledUp).to.equal(1);
    expect(store.hours.at(-1)).to.equal('2026-11-22T09:00:00.000Z');
  });

  it('drops raw days only once rolled up, and purges rollups past their retention', async () => {
    const store = new FakeResultMaintenance();
    store.rolled = { from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-05T00:00:00Z'), dailyTo: null };
    const screenshots = new FakeScreenshots([
      shotAt('2026-11-20T10:00:00Z', 1),
      shotAt('2026-11-21T10:29:00Z', 2),
      shotAt('2026-11-21T10:31:00Z', 3),
    ]);
    const useCase = new MaintainResultStorage(store, settings, clock, screenshots);
    expect((await useCase.execute()).screenshotsPurged).to.equal(2);
    expect(screenshots.shots.map((s) => s.id.at(-1))).to.deep.equal(['3']);
    expect(store.dropBefore!.toISOString()).to.equal('2026-11-21T10:30:00.000Z');
    expect(screenshots.purgedBefore!.toISOString(), 'screenshots live as long as raw results').to.equal('2026-11-21T10:30:00.000Z');
    expect(store.purgeBefore!.toISOString()).to.equal('2026-11-12T10:00:00.000Z');
    const behind = new FakeResultMaintenance();
    behind.rollUpHour = async () => {};
    behind.rolled = { from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-05T00:00:00Z'), dailyTo: null };
    await new MaintainResultStorage(behind, settings, clock, new FakeScreenshots()).execute();
    expect(behind.dropBefore!.toISOString()).to.equal('2026-11-05T00:00:00.000Z');
  });

  it('packs closed, rolled-up days older than the raw window, merges old rollup hours into days, and purges compact hours', async () => {
    const store = new FakeResultMaintenance();
    store.rolled = { from: new Date('2026-11-10T00:00:00Z'), to: new Date('2026-11-22T09:00:00Z'), dailyTo: null };
    store.partitions = ['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'].map((d) => `${d}T00:00:00.000Z`);
    const at = new ManualClock('2026-11-22T10:14:00Z');
    const useCase = new MaintainResultStorage(store, { ...settings, resultsRetentionDays: 30 }, at, new FakeScreenshots());
    const report = await useCase.execute();
    expect(store.compacted).to.deep.equal(['2026-11-20T00:00:00.000Z', '2026-11-21T00:00:00.000Z']);
    expect(report).to.include({ daysCompacted: 2, resultsCompacted: 20, rollupDaysMerged: 4 });
    expect(store.merged).to.deep.equal(['2026-11-10', '2026-11-11', '2026-11-12', '2026-11-13'].map((d) => `${d}T00:00:00.000Z`));
    expect(store.compactPurgeBefore!.toISOString()).to.equal('2026-10-23T10:00:00.000Z');
    const again = await useCase.execute();
    expect(again).to.include({ daysCompacted: 0, rollupDaysMerged: 0 });
  });
});
