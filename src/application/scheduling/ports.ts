import type { CheckRequest } from '../../domain/checks/check-request';
import type { CheckResult } from '../../domain/checks/check-result';
import { token } from '../shared/token';
import type { Transaction } from '../shared/transaction';
import type { StoredResult } from '../results/ports';

/** One monitor's checks from one location, on its interval grid, as a worker holds it. */
export interface ClaimedCheck {
  readonly monitorId: number;
  readonly location: string;
  /** The slot this run fills (its due time). */
  readonly slot: Date;
  readonly intervalMs: number;
  readonly phaseMs: number;
}

export interface ClaimInput {
  readonly workerId: string;
  /** Where to take rows no one holds. */
  readonly locations: readonly string[];
  readonly now: Date;
  /** Most rows no one holds to take (the worker's room under its shares). */
  readonly limit: number;
  /**
   * Rows of fenced workers, taken apart from `limit`: a dead worker's rows must run now, whoever's
   * share they exceed (the next count of the shares evens them out, handing each back at its next
   * slot). Without it, they count within `limit` and come from `locations`.
   */
  readonly adopt?: { readonly locations: readonly string[]; readonly limit: number };
}

export interface LocationLoad {
  readonly location: string;
  readonly rows: number;
  /** Live workers serving it. */
  readonly workers: number;
  /**
   * Workers registered to serve it in any state (the asking one, and lapsed or fenced ones until
   * they are pruned): one means the asker is alone there, with no peer whose rows it could adopt.
   */
  readonly registered: number;
}

/** A change a worker must apply to the rows it holds. */
export interface ScheduleChange {
  readonly seq: number;
  readonly monitorId: number;
  /** trigger-check: run now (besides re-reading the monitor). */
  readonly triggered: boolean;
  /** When it was logged: a triggered check counts its lateness from here. */
  readonly at: Date;
}

/**
 * The schedule of every monitor's checks, shared by all workers. It follows the monitors on its
 * own (active monitors with locations get one row per location on their interval grid as they are
 * written). A worker claims rows and then holds them, running their slots from memory: nothing is
 * written per check. It holds them while it is alive: `renew` is its heartbeat and, inside the
 * transaction that records results, its fence. A worker that missed its renewals is fenced for
 * good before anyone takes its rows, which resume after their last recorded result, so no slot
 * runs twice to completion and none is lost. The worker protocol's writes (`register`, `claim`,
 * `release`, `resign`, `prune`) take no tx: each is one statement on the engine's own pool, and a
 * lease or a fence must commit at once for the other workers to see it.
 */
export interface CheckSchedule {
  /**
   * Registers a worker (a new id each time: a fenced worker comes back under another). Answers the
   * sequence number to read changes after: the last one logged `changesSettledMs` ago or earlier
   * (a change commits a little after it is numbered, so readers look back that far).
   */
  register(workerId: string, locations: readonly string[], aliveUntil: Date, changesSettledMs: number): Promise<number>;
  /**
   * Extends the worker's life unless it lapsed or was fenced: false means its rows are no longer
   * its own (forget them, drop unrecorded results, register again). Runs on `tx` (the recording's fence).
   */
  renew(workerId: string, now: Date, aliveUntil: Date, tx: Transaction): Promise<boolean>;
  /** `renew` as one statement on its own, outside any transaction (the claim round's heartbeat). */
  heartbeat(workerId: string, now: Date, aliveUntil: Date): Promise<boolean>;
  /**
   * Fences workers whose lease lapsed and takes rows no live worker holds: up to `limit` that no
   * one held, which start at their planned slot, and rows of fenced workers (up to `adopt.limit`,
   * or within `limit`), which start at the first slot after their last recorded result.
   */
  claim(input: ClaimInput): Promise<ClaimedCheck[]>;
  /** The rows of these monitors the worker holds now (after changes), at their planned slot. */
  held(workerId: string, monitorIds: readonly number[]): Promise<ClaimedCheck[]>;
  /** Hands rows back, each to start at the given slot under its next holder. */
  release(workerId: string, rows: readonly ClaimedCheck[]): Promise<void>;
  /** A graceful stop: hands back these rows at their slots, and any others the worker holds, and ends the worker. */
  resign(workerId: string, rows: readonly ClaimedCheck[]): Promise<void>;
  /**
   * Per location, its rows, the live workers serving it and every worker registered for it: a
   * worker holding more than its share of a location hands the rest back, so workers of one
   * location split its rows evenly.
   */
  load(locations: readonly string[], now: Date): Promise<LocationLoad[]>;
  /** Changes logged after `afterSeq`, oldest first. */
  changesAfter(afterSeq: number, limit: number): Promise<ScheduleChange[]>;
  /** Forgets changes logged more than `keepChangesMs` ago, and workers fenced and left without rows. */
  prune(keepChangesMs: number): Promise<void>;
  /**
   * Makes every location of a monitor due now (trigger-check), logged as triggered at `now`: each
   * location's check asked for starts at or after it, by its worker's clock. Answers how many rows it has. It
   * stands alone on the pool, with no tx: one statement (the rows moved and the change logged
   * together), and the request that triggers it writes nothing else to join.
   */
  dueNow(monitorId: number, now: Date): Promise<number>;
  /**
   * Confirmation checks: each monitor runs once more at its time from every location, wherever its
   * rows are held, off its interval grid (the next regular slot stays where it was). Logged as
   * triggered changes due then, in one statement; runs on `tx` when given.
   */
  confirmAt(confirmations: readonly { monitorId: number; at: Date }[], tx: Transaction): Promise<void>;
}
export const CHECK_SCHEDULE = token<CheckSchedule>('CheckSchedule');

/** A claimed check with what it runs and whom it belongs to. */
export interface PlannedCheck {
  readonly check: ClaimedCheck;
  readonly request: CheckRequest;
  readonly organizationId: number;
  readonly customerId: number;
}

/**
 * Turns held rows into runnable checks. Rows of monitors deleted or paused since they were read,
 * or that run nothing on a schedule, come back as `dropped`.
 */
export interface CheckPlanner {
  plan(checks: readonly ClaimedCheck[]): Promise<{ planned: PlannedCheck[]; dropped: ClaimedCheck[] }>;
}
export const CHECK_PLANNER = token<CheckPlanner>('CheckPlanner');

export interface CheckOutcome {
  readonly planned: PlannedCheck;
  readonly result: CheckResult;
  readonly startedAt: Date;
}

export interface RecordedOutcomes {
  readonly recorded: number;
  readonly dropped: number;
  /** The worker had been fenced: none of its rows is its own any more (the engine's recorder then records nothing). */
  readonly fenced: boolean;
  /**
   * Whether recording renewed the worker's lease (the engine's does, in its transaction). A probe's
   * recorder only buffers, so its lease is renewed by its own calls: false.
   */
  readonly renewed?: boolean;
}

/**
 * Stores finished checks' results and runs the alert rules, in one transaction with the worker's
 * renewal: a fenced worker's outcomes are all dropped, so a slot counts once.
 */
export interface OutcomeRecorder {
  record(workerId: string, outcomes: readonly CheckOutcome[], now: Date, aliveUntil: Date): Promise<RecordedOutcomes>;
  /**
   * Finished checks a fenced or stopping worker could not record. The engine drops them (another
   * worker runs those slots); a probe keeps them, reported as late history.
   */
  abandoned?(workerId: string, outcomes: readonly CheckOutcome[]): void;
}
export const OUTCOME_RECORDER = token<OutcomeRecorder>('OutcomeRecorder');

/**
 * A worker's steady batch (results no alert rule needs to see: RecordCheckResult.knownSteadyRows)
 * stored with the worker's renewal as one write, with no transaction of several statements around
 * it: the rows go in only if the renewal holds, as in the long way's transaction, so a fenced
 * worker's late results count for nothing. Answers whether the worker was renewed (false: it was
 * fenced, and nothing was stored).
 */
export interface SteadyCheckResults {
  storeRenewing(workerId: string, now: Date, aliveUntil: Date, rows: readonly StoredResult[]): Promise<boolean>;
}
export const STEADY_CHECK_RESULTS = token<SteadyCheckResults>('SteadyCheckResults');

/**
 * Tells a worker that the schedule may have work for it (a change logged, rows no one holds), so
 * it need not ask the schedule every half second. Notices may be merged or, while the channel is
 * down, missed: the worker still looks on a slow period of its own.
 */
export interface ScheduleWakeups {
  /** Calls `wake` on every notice (and once after the channel comes back) until the answer is called. */
  listen(wake: () => void): Promise<() => Promise<void>>;
}
