import { expect } from 'chai';
import { CheckDispatcher } from '../../../../../src/application/scheduling/check-dispatcher';
import type { ClaimedCheck } from '../../../../../src/application/scheduling/ports';
import type { CheckResult } from '../../../../../src/domain/checks/check-result';
import { FakeOutcomeRecorder, FakePlanner, FakeSchedule } from '../../../../support/fakes/scheduling-fakes';
import { CLOCK_START, ManualClock } from '../../../../support/manual-clock';
import { aCheckResult } from '../../../../support/builders';

const start = CLOCK_START.getTime();
const MIN = 60_000;
const LOCATIONS = ['eu', 'us', 'ap'];
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Monitor 1's rows, one per location, on a one-minute grid: each first due `offsets[location]` from the start. */
const rowsAt = (offsets: Record<string, number>): ClaimedCheck[] =>
  Object.entries(offsets).map(([location, offsetMs]) => ({
    monitorId: 1,
    location,
    slot: new Date(start + offsetMs),
    intervalMs: MIN,
    phaseMs: (start + offsetMs) % MIN,
  }));

/** A worker serving every location, recording when each location's check starts (checks end at once unless held). */
function anEngine(schedule: FakeSchedule) {
  const clock = new ManualClock();
  const ran: Array<{ location: string; at: number }> = [];
  const pending: Array<() => void> = [];
  let hold = false;
  const planner = new FakePlanner((check) => ({ kind: 'tcp', host: check.location, port: 1, timeoutSeconds: 5 }));
  const dispatcher = new CheckDispatcher(
    schedule,
    planner,
    (request) => {
      const at = clock.ms;
      ran.push({ location: (request as { host: string }).host, at: at - start });
      const result: CheckResult = aCheckResult().at(at).build();
      return hold ? new Promise((resolve) => pending.push(() => resolve(result))) : Promise.resolve(result);
    },
    new FakeOutcomeRecorder(),
    clock,
    { workerId: 'w', locations: LOCATIONS, batchSize: 100, maxInFlight: 150, leaseMs: 10 * MIN },
  );
  const runFor = async (ms: number) => {
    for (let t = 0; t < ms; t += 250) {
      clock.advance(250);
      dispatcher.startDue();
      await settle();
    }
  };
  const startsOf = (location: string) => ran.filter((r) => r.location === location).map((r) => r.at);
  return { dispatcher, clock, ran, pending, runFor, startsOf, holdChecks: (on: boolean) => (hold = on) };
}

/** Each start within a tick (and the host's start delay) of the time expected. */
const near = (starts: number[], expected: number[]) =>
  starts.length === expected.length && starts.every((at, k) => at - expected[k]! >= 0 && at - expected[k]! <= 300);

describe('Confirmation rounds of a monitor with several locations', () => {
  it('runs a confirmation at its time from every location, also one whose own slot came first, each then back on its grid', async () => {
    // eu checks at 1 s, us at 10 s, ap at 45 s of each minute.
    const schedule = new FakeSchedule(rowsAt({ eu: 1_000, us: 10_000, ap: 45_000 }));
    const { dispatcher, runFor, startsOf } = anEngine(schedule);
    await dispatcher.pump();
    await runFor(1_250);
    expect(startsOf('eu')).to.satisfy((s: number[]) => near(s, [1_000]));
    // eu's result asked for a confirmation 20 s after its check: us's own slot (10 s) comes before it.
    await schedule.confirmAt([{ monitorId: 1, at: new Date(start + 21_000) }]);
    await dispatcher.pump();
    await runFor(2 * MIN - 1_250);

    expect(startsOf('eu'), 'eu: its slot, the confirmation, its grid').to.satisfy((s: number[]) => near(s, [1_000, 21_000, 61_000]));
    expect(startsOf('us'), 'us: its own slot, still the confirmation, its grid').to.satisfy((s: number[]) =>
      near(s, [10_000, 21_000, 70_000]),
    );
    expect(startsOf('ap'), 'ap: the confirmation (before its slot), then its grid').to.satisfy((s: number[]) =>
      near(s, [21_000, 45_000, 105_000]),
    );
  });

  it('keeps only the earliest of several confirmations asked before it ran: its result asks again if needed', async () => {
    const schedule = new FakeSchedule(rowsAt({ eu: 1_000, us: 10_000 }));
    const { dispatcher, runFor, startsOf } = anEngine(schedule);
    await dispatcher.pump();
    await runFor(1_250);
    await schedule.confirmAt([{ monitorId: 1, at: new Date(start + 21_000) }]);
    await dispatcher.pump();
    await runFor(9_000);
    // us's own check (10 s) asked for its own confirmation at 30 s, after the round at 21 s.
    await schedule.confirmAt([{ monitorId: 1, at: new Date(start + 30_000) }]);
    await dispatcher.pump();
    await runFor(MIN);

    expect(startsOf('eu')).to.satisfy((s: number[]) => near(s, [1_000, 21_000, 61_000]));
    expect(startsOf('us')).to.satisfy((s: number[]) => near(s, [10_000, 21_000, 70_000]));
  });

  it('runs a trigger-check logged while the location is running once that check ends, then goes back on its grid', async () => {
    const schedule = new FakeSchedule(rowsAt({ eu: 1_000, us: 30_000 }));
    const { dispatcher, clock, pending, runFor, startsOf, holdChecks } = anEngine(schedule);
    holdChecks(true);
    await dispatcher.pump();
    await runFor(1_250);
    expect(startsOf('eu'), 'eu is running').to.have.length(1);
    clock.advance(100);
    schedule.change(1, {}, true, clock.now()); // trigger-check: run now, from every location
    await dispatcher.pump();
    expect(startsOf('us'), 'us runs at once').to.satisfy((s: number[]) => near(s, [1_350]));
    expect(startsOf('eu'), 'eu still running').to.have.length(1);
    holdChecks(false);
    await runFor(2_000);
    for (const finish of pending.splice(0)) finish();
    await settle();
    await runFor(MIN);

    expect(startsOf('eu'), 'eu again once its check ended, then on its grid').to.satisfy((s: number[]) => near(s, [1_000, 3_250, 61_000]));
    expect(startsOf('us'), 'us: the trigger, then its grid').to.satisfy((s: number[]) => near(s, [1_350, 30_000]));
  });
});
