import type { CheckRequest } from '../../domain/checks/check-request';
import type { CheckResult } from '../../domain/checks/check-result';

/** One due check of one monitor from one location, claimed by a worker under a lease. */
export interface ClaimedCheck {
  readonly monitorId: number;
  readonly location: string;
  /** The slot this run fills (its due time). */
  readonly slot: Date;
  readonly intervalMs: number;
  readonly phaseMs: number;
}

export interface ClaimInput {
  readonly locations: readonly string[];
  readonly now: Date;
  readonly dueBy?: Date;
  readonly limit: number;
  readonly leaseMs: number;
  readonly workerId: string;
}

export interface CompletedCheck {
  readonly check: ClaimedCheck;
  readonly nextSlot: Date;
}

/**
 * The schedule of every monitor's checks, shared by all workers. It follows the monitors on its
 * own (active monitors with locations are planned on their interval grid as they are written). Due checks are claimed in
 * batches; a claim is a lease: no other worker gets the slot until the lease lapses (the worker
 * died), and completing a slot whose lease was lost changes nothing, so no slot runs twice to
 * completion and none is lost.
 */
export interface CheckSchedule {
  /** Claims slots due by `dueBy` (default `now`), earliest first; leases run `leaseMs` from `now`. */
  claimDue(input: ClaimInput): Promise<ClaimedCheck[]>;
  /** Advances each completed check to its next slot; answers the ones whose lease was still held. */
  complete(workerId: string, completed: readonly CompletedCheck[]): Promise<CompletedCheck[]>;
  /** Makes every location of a monitor due now (trigger-check), except slots already running. Answers how many. */
  dueNow(monitorId: number, now: Date): Promise<number>;
}
export const CHECK_SCHEDULE = Symbol.for('CheckSchedule');

/** A claimed check with what it runs and whom it belongs to. */
export interface PlannedCheck {
  readonly check: ClaimedCheck;
  readonly request: CheckRequest;
  readonly organizationId: number;
  readonly customerId: number;
}

/**
 * Turns claimed slots into runnable checks. Slots of monitors deleted or paused since they were
 * claimed come back as `dropped` (the schedule follows the monitors: their rows are gone already).
 */
export interface CheckPlanner {
  plan(checks: readonly ClaimedCheck[]): Promise<{ planned: PlannedCheck[]; dropped: ClaimedCheck[] }>;
}
export const CHECK_PLANNER = Symbol.for('CheckPlanner');

export interface CheckOutcome {
  readonly planned: PlannedCheck;
  readonly result: CheckResult;
  readonly startedAt: Date;
  readonly nextSlot: Date;
}

/**
 * Completes finished checks: advances their slots (only while this worker's lease holds), stores
 * their results and runs the alert rules. A lost lease drops the outcome, so a slot counts once.
 */
export interface OutcomeRecorder {
  record(workerId: string, outcomes: readonly CheckOutcome[]): Promise<{ recorded: number; dropped: number }>;
}
export const OUTCOME_RECORDER = Symbol.for('OutcomeRecorder');
