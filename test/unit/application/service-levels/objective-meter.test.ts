import { expect } from 'chai';
import { ObjectiveMeter } from '../../../../src/application/service-levels/objective-meter';
import { EvaluateBurnAlerts } from '../../../../src/application/service-levels/evaluate-burn-alerts';
import { ServiceLevelObjective, type ObjectiveWindow } from '../../../../src/domain/service-levels/objective';
import type { MonitorRef } from '../../../../src/application/results/ports';
import { ManualClock } from '../../../support/manual-clock';
import { immediateTransactions } from '../../../support/fakes/shared-fakes';
import {
  FakeExclusions,
  FakeObjectives,
  FakeObjectiveSubjects,
  FakeServiceLevelCoverage,
  FakeServiceLevelEvents,
  type Stretch,
} from '../../../support/fakes/service-levels-fakes';

const NOW = new Date('2026-06-21T00:00:00Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

const aMonitor = (monitorId: number, over: Partial<MonitorRef> = {}): MonitorRef => ({
  monitorId,
  publicId: `00000000-0000-4000-8000-00000000000${monitorId}`,
  organizationId: 1,
  customerId: 7,
  name: `m${monitorId}`,
  checkIntervalSeconds: 60,
  locations: ['eu'],
  createdAt: ago(60 * DAY),
  ...over,
});

const anObjective = (window: ObjectiveWindow = 'rolling7d', target = 99) =>
  ServiceLevelObjective.create(
    {
      publicId: '10000000-0000-4000-8000-000000000001',
      organizationId: 1,
      customerId: 7,
      name: 'Shop',
      target,
      window,
      timezone: 'UTC',
      subject: { type: 'customer', customerId: 7, tagId: null },
      alertsEnabled: true,
    },
    ago(30 * DAY),
  );

const good = (monitorId: number, from: Date, to: Date): Stretch => ({ monitorId, from, to, good: true });
const bad = (monitorId: number, from: Date, to: Date): Stretch => ({ monitorId, from, to, good: false });

describe('ObjectiveMeter', () => {
  it('leaves maintenance out and reports unknown time apart', async () => {
    // Day 1 of the window good, 1 h bad of which 30 min in maintenance, then nothing known for the last day.
    const stretches = [good(1, ago(7 * DAY), ago(6 * DAY)), bad(1, ago(6 * DAY), ago(6 * DAY - HOUR))];
    const exclusions = new FakeExclusions(new Map([[1, [{ from: ago(6 * DAY), to: ago(6 * DAY - 30 * MIN) }]]]));
    const meter = new ObjectiveMeter(new FakeObjectiveSubjects([aMonitor(1)]), new FakeServiceLevelCoverage(stretches), exclusions);
    const status = await meter.status(anObjective(), NOW);
    expect(status.measure).to.deep.include({ goodSeconds: DAY / 1000, badSeconds: 1800, maintenanceSeconds: 1800 });
    expect(status.level.maintenanceMinutes).to.equal(30);
    expect(status.level.attainmentPercent).to.equal(Number(((86_400 / 88_200) * 100).toFixed(4)));
    // 7 days less 30 min of maintenance, less 24.5 h known.
    expect(status.level.unknownMinutes).to.equal(7 * 1440 - 30 - 1470);
    expect(status.burnRates).to.deep.equal({ '5m': null, '30m': null, '1h': null, '6h': null });
  });

  it('counts a monitor from its first result and its lanes, and a calendar month’s rest', async () => {
    const twoPlaces = aMonitor(2, { locations: ['eu', 'us'] });
    const stretches = [good(1, ago(30 * DAY), NOW), good(2, ago(2 * DAY), NOW)];
    const coverage = new FakeServiceLevelCoverage(stretches, new Map([[2, 2]]));
    const meter = new ObjectiveMeter(new FakeObjectiveSubjects([aMonitor(1), twoPlaces]), coverage, new FakeExclusions());
    const status = await meter.status(anObjective('calendarMonth', 99.9), NOW);
    // June 1st to 21st for the first (one lane), the last 2 days for the second (two lanes); 10 days to come for three lanes.
    expect(status.measure.expectedSeconds).to.equal((20 * DAY + 2 * 2 * DAY) / 1000);
    expect(status.measure.remainingSeconds).to.equal((3 * 10 * DAY) / 1000);
    expect(status.level.unknownMinutes).to.equal(0);
    expect(status.level.budget.totalMinutes).to.equal(Number(((0.001 * (24 + 30) * 86_400) / 3 / 60).toFixed(2)));
  });

  it('measures the burn windows only when told to', async () => {
    const stretches = [good(1, ago(2 * HOUR), ago(10 * MIN)), bad(1, ago(10 * MIN), NOW)];
    const coverage = new FakeServiceLevelCoverage(stretches);
    const meter = new ObjectiveMeter(new FakeObjectiveSubjects([aMonitor(1)]), coverage, new FakeExclusions());
    const status = await meter.status(anObjective(), NOW, { withWindow: false });
    expect(status.measure.goodSeconds).to.equal(0);
    expect(coverage.measured[0]!.every((p) => p.range.from >= ago(6 * HOUR))).to.equal(true);
    expect(status.burnRates['5m']).to.equal(100);
    expect(status.burnRates['1h']).to.be.closeTo((10 / 60) * 100, 1e-9);
  });
});

describe('EvaluateBurnAlerts', () => {
  async function aSetup(stretches: Stretch[]) {
    const objectives = new FakeObjectives();
    const objective = await objectives.add(anObjective());
    const coverage = new FakeServiceLevelCoverage(stretches);
    const meter = new ObjectiveMeter(new FakeObjectiveSubjects([aMonitor(1)]), coverage, new FakeExclusions());
    const events = new FakeServiceLevelEvents();
    const clock = new ManualClock(NOW);
    const evaluate = new EvaluateBurnAlerts(objectives, meter, events, immediateTransactions, clock);
    return { objectives, objective, coverage, events, clock, evaluate };
  }

  it('tells a fast burn once, and its end once', async () => {
    // 9 of the last 60 minutes bad at 99 %: 15x over the hour, 100x over 5 minutes (2.5x over 6 hours: not slow).
    const setup = await aSetup([good(1, ago(6 * HOUR), ago(9 * MIN)), bad(1, ago(9 * MIN), NOW)]);
    expect(await setup.evaluate.execute()).to.deep.equal({ evaluated: 1, burning: 1, recovered: 0 });
    expect(await setup.evaluate.execute()).to.deep.equal({ evaluated: 1, burning: 0, recovered: 0 });
    expect(setup.events.published.map((e) => [e.kind, e.data.rules])).to.deep.equal([['slo.burning', ['fast']]]);
    expect(setup.objectives.rows.get(setup.objective.id)!.burnState).to.equal('burning');
    setup.coverage.stretches.push(good(1, NOW, new Date(NOW.getTime() + 6 * MIN)));
    setup.clock.advance(6 * MIN);
    expect(await setup.evaluate.execute()).to.deep.include({ recovered: 1 });
    expect(setup.events.published.map((e) => e.kind)).to.deep.equal(['slo.burning', 'slo.recovered']);
  });

  it('tells nothing just under the fast factor', async () => {
    // 8 of 60 minutes bad: 13.3x over the hour (under 14.4) though 100x over 5 minutes; 2.2x over 6 hours.
    const setup = await aSetup([good(1, ago(6 * HOUR), ago(8 * MIN)), bad(1, ago(8 * MIN), NOW)]);
    expect(await setup.evaluate.execute()).to.deep.include({ burning: 0 });
    expect(setup.events.published).to.deep.equal([]);
  });
});
