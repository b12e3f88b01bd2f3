import type { CheckPlanner, ClaimedCheck, PlannedCheck } from '../ports';

/** What a held row runs: its request and whom it belongs to (null on the row: nothing to run now). */
export type CheckPlan = Omit<PlannedCheck, 'check'>;

/** One held row: a monitor's checks from one location, with what they run. */
export interface HeldCheck {
  readonly monitorId: number;
  readonly location: string;
  intervalMs: number;
  phaseMs: number;
  slotMs: number;
  /**
   * A check asked of the row (a trigger-check: now; a confirmation: its time) that no run started
   * at or after it has served yet: when the row's own slot comes first, it runs there and then at
   * this time, before going back on its grid (null: nothing asked).
   */
  askedMs: number | null;
  /** When its last check started (0: not yet). */
  startedMs: number;
  plan: CheckPlan | null;
  running: boolean;
  /** Its last outcome waits to be recorded (the row is not handed back before). */
  unrecorded: boolean;
  /**
   * Still held by this worker: false once dropped, replaced or forgotten, so a queued start or a
   * finished outcome of a row no longer held is recognised without looking the row up.
   */
  current: boolean;
}

export const keyOf = (monitorId: number, location: string) => `${monitorId}:${location}`;

/** The row as the schedule knows it, at its current slot. */
export const claimedOf = (h: HeldCheck): ClaimedCheck => ({
  monitorId: h.monitorId,
  location: h.location,
  slot: new Date(h.slotMs),
  intervalMs: h.intervalMs,
  phaseMs: h.phaseMs,
});

/** A new held row for a claimed (or re-read) one. */
export const heldOf = (check: ClaimedCheck, plan: CheckPlan | null): HeldCheck => ({
  monitorId: check.monitorId,
  location: check.location,
  intervalMs: check.intervalMs,
  phaseMs: check.phaseMs,
  slotMs: check.slot.getTime(),
  askedMs: null,
  startedMs: 0,
  plan,
  running: false,
  unrecorded: false,
  current: true,
});

/**
 * Asks a held row for a check at `at`. A run starting at or after `at` serves it: the row's slot
 * moves to `at` when that comes first (a running row waits for its check to end); otherwise the
 * row keeps its own slot and runs at `at` too (`nextSlotOf`). An earlier request still waiting
 * covers a later one: its run comes after the result that asked for the later one, and that run's
 * result asks again if the rules still need it. A check running since `at` or later serves it too.
 */
export function askCheckAt(h: HeldCheck, at: number): void {
  if ((h.askedMs !== null && h.askedMs <= at) || (h.running && h.startedMs >= at)) return;
  h.askedMs = at;
  if (!h.running && at <= h.slotMs) h.slotMs = at;
}

/** A run starts at `startedAt`: it serves the request it reached. */
export function markStarted(h: HeldCheck, startedAt: number): void {
  h.startedMs = startedAt;
  if (h.askedMs !== null && h.askedMs <= startedAt) h.askedMs = null;
}

/** The row's next slot once a check ended: its grid slot, or the time asked of it when that comes first. */
export const nextSlotOf = (h: HeldCheck, gridSlotMs: number): number => (h.askedMs === null ? gridSlotMs : Math.min(gridSlotMs, h.askedMs));

/** Plans rows, keyed as held rows are (rows the planner drops have no entry). */
export async function plansOf(planner: CheckPlanner, checks: readonly ClaimedCheck[]): Promise<Map<string, CheckPlan>> {
  if (checks.length === 0) return new Map();
  const { planned } = await planner.plan(checks);
  return new Map(
    planned.map(({ check, request, organizationId, customerId }) => [
      keyOf(check.monitorId, check.location),
      { request, organizationId, customerId },
    ]),
  );
}

/**
 * The rows this worker holds, by monitor and location, with a count per location (the rebalancer
 * compares it with the worker's share). A row dropped or replaced is marked no longer current and
 * leaves the run queue through `unqueue`.
 */
export class HeldChecks {
  private readonly byKey = new Map<string, HeldCheck>();
  private readonly perLocation = new Map<string, number>();

  constructor(private readonly unqueue: (h: HeldCheck) => void) {}

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): HeldCheck | undefined {
    return this.byKey.get(key);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  values(): IterableIterator<HeldCheck> {
    return this.byKey.values();
  }

  countIn(location: string): number {
    return this.perLocation.get(location) ?? 0;
  }

  /** Holds a row (replacing any held under its key). */
  keep(h: HeldCheck): void {
    const key = keyOf(h.monitorId, h.location);
    const previous = this.byKey.get(key);
    if (previous) previous.current = false;
    else this.perLocation.set(h.location, this.countIn(h.location) + 1);
    this.byKey.set(key, h);
  }

  drop(key: string): void {
    const h = this.byKey.get(key);
    if (!h) return;
    h.current = false;
    this.byKey.delete(key);
    this.unqueue(h);
    this.perLocation.set(h.location, this.countIn(h.location) - 1);
  }

  /** Forgets every row (the worker was fenced or resigned). */
  clear(): void {
    for (const h of this.byKey.values()) h.current = false;
    this.byKey.clear();
    this.perLocation.clear();
  }
}
