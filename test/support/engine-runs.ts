import { expect } from 'chai';
import { sql } from '../../src/infrastructure/persistence/sql';
import { api } from './http-client';
import { CheckDispatcher } from '../../src/application/scheduling/check-dispatcher';
import {
  CHECK_PLANNER,
  CHECK_SCHEDULE,
  OUTCOME_RECORDER,
  type CheckPlanner,
  type CheckSchedule,
  type ClaimInput,
  type OutcomeRecorder,
} from '../../src/application/scheduling/ports';
import { RunCheck } from '../../src/application/checks/run-check';
import { testClock } from './test-clock';
import { testServer } from './test-server';
import type { RunningApplication } from '../../src/main/application';
import { waitFor } from './wait-for';

/**
 * TEST SUPPORT ONLY: a dispatcher of the real engine (schedule, planner, RunCheck, recorder) that
 * holds only the given monitors' rows, since other tests' monitors share the locations: rows of
 * other monitors it claims are handed straight back, unchanged, and they count for nothing in its share.
 */
export async function anEngineFor(
  monitorIds: ReadonlySet<number>,
  locations: string[],
  workerId = 'test-worker',
  leaseMs = 90_000,
  app?: RunningApplication,
): Promise<CheckDispatcher> {
  const { container } = app ?? (await testServer());
  const schedule = container.get<CheckSchedule>(CHECK_SCHEDULE);
  const onlyThese: CheckSchedule = Object.assign(Object.create(schedule) as CheckSchedule, {
    // Every free row of the locations at once: claims are unordered, so a batch of the usual size
    // could keep answering the same rows of other tests' monitors (handed back each round) and never
    // reach this test's, once the shared database holds more than a batch of them.
    async claim(input: ClaimInput) {
      const claimed = await schedule.claim({ ...input, limit: EVERY_ROW, adopt: input.adopt && { ...input.adopt, limit: EVERY_ROW } });
      await schedule.release(
        input.workerId,
        claimed.filter((c) => !monitorIds.has(c.monitorId)),
      );
      return claimed.filter((c) => monitorIds.has(c.monitorId));
    },
    // Its share is every row it wants: the others are not its business.
    async load(locations: readonly string[]) {
      return locations.map((location) => ({ location, rows: Number.MAX_SAFE_INTEGER, workers: 1, registered: 1 }));
    },
  });
  const runCheck = container.get(RunCheck);
  return new CheckDispatcher(
    onlyThese,
    container.get<CheckPlanner>(CHECK_PLANNER),
    (request) => runCheck.execute(request),
    container.get<OutcomeRecorder>(OUTCOME_RECORDER),
    testClock,
    {
      workerId: `${workerId}-${++engines}-${Math.random().toString(36).slice(2, 8)}`,
      locations,
      batchSize: 100,
      maxInFlight: 100,
      leaseMs,
    },
  );
}
let engines = 0;
const EVERY_ROW = 1_000_000;

/** Runs the worker loop until `count` more outcomes are recorded (fails after `withinMs`); `app` is the one the dispatcher came from. */
export async function runUntilRecorded(
  dispatcher: CheckDispatcher,
  count: number,
  withinMs = 15_000,
  app?: RunningApplication,
): Promise<void> {
  if (!app) await testServer();
  const goal = dispatcher.stats.recorded + count;
  await waitFor(
    async () => {
      await dispatcher.pump();
      await dispatcher.flush();
      return dispatcher.stats.recorded >= goal;
    },
    { timeoutMs: withinMs, what: `${count} more outcomes recorded` },
  );
}

/**
 * TEST SUPPORT ONLY: a monitor held back from the schedule's own rounds (its next slot an hour
 * ahead), so only the test's trigger-checks run it.
 */
export async function holdBackFromSchedule(monitorId: number): Promise<void> {
  const { database } = await testServer();
  const later = new Date(testClock.now().getTime() + 3_600_000);
  await database.sql.query(sql`UPDATE check_schedule SET next_due_at = ${later} WHERE monitor_id = ${monitorId}`);
}

/**
 * TEST SUPPORT ONLY: triggers a website's check through the API, runs the engine for `monitorIds`
 * at `locations` until it is recorded, and answers the newest entry of its check history.
 */
export async function triggeredCheck(token: string, publicId: string, monitorIds: Set<number>, locations: string[]): Promise<any> {
  expect((await api('POST', `/api/websites/${publicId}/trigger-check`, { token })).status).to.equal(202);
  await runUntilRecorded(await anEngineFor(monitorIds, locations), 1);
  const history = await api('GET', `/api/websites/${publicId}/check-history`, { token });
  expect(history.status).to.equal(200);
  return history.body.items[0];
}
