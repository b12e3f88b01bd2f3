import { nextSlotAfter } from '../../../domain/scheduling/check-slot';
import { ChangeCursor } from '../../../domain/scheduling/change-cursor';
import type { CheckPlanner, CheckSchedule } from '../ports';
import { askCheckAt, keyOf, plansOf, type HeldChecks } from './held-checks';
import type { RunQueue } from './run-queue';
import type { WorkerLease } from './worker-lease';

/** How long a logged change may take to commit after it is numbered: changes are read again for that long. */
export const CHANGES_SETTLE_MS = 10_000;
/** Most changes read per round trip. */
const CHANGES_PAGE = 5_000;
/** How long changes are kept, and how often old ones are pruned. */
const KEEP_CHANGES_MS = 600_000;
const PRUNE_EVERY_MS = 60_000;

/** Per monitor named in a round: when it was first triggered (null: not triggered), and whether it changed otherwise. */
interface Touched {
  triggeredAt: number | null;
  changed: boolean;
}

/**
 * The worker's reading of the schedule's change log (monitor writes and trigger-check): each round
 * reads what was logged since the last, and re-reads the held rows of the monitors named. Rows gone
 * (paused, deleted, location dropped) are forgotten, a new interval moves the row onto its new
 * grid, a trigger asks the row for a check now (a confirmation check: at its time, after the row's
 * own slot when that comes first: `askCheckAt`), and the plan is refreshed (config, heartbeats). Old
 * entries of the log are pruned now and then.
 */
export class ChangeFeed {
  private readonly cursor = new ChangeCursor(CHANGES_SETTLE_MS);
  private lastPrune = 0;

  constructor(
    private readonly schedule: CheckSchedule,
    private readonly planner: CheckPlanner,
    private readonly held: HeldChecks,
    private readonly queue: RunQueue,
    private readonly lease: WorkerLease,
    private readonly locations: readonly string[],
  ) {}

  /** A newly registered worker reads the log after `seq`. */
  startAfter(seq: number): void {
    this.cursor.reset(seq);
  }

  /** Applies the changes logged since the last round to the rows held. */
  async apply(now: number): Promise<void> {
    const generation = this.lease.generation;
    const touched = await this.read(now, generation);
    if (touched === null) return;
    // A trigger alone changes nothing but the slot: only monitors that changed are read again.
    const changed = [...touched].filter(([, t]) => t.changed).map(([monitorId]) => monitorId);
    const rows = await this.schedule.held(this.lease.workerId, changed);
    const plans = await plansOf(this.planner, rows);
    if (!this.lease.isCurrent(generation)) return;
    const current = new Map(rows.map((row) => [keyOf(row.monitorId, row.location), row]));
    for (const [monitorId, { triggeredAt, changed: reread }] of touched) {
      for (const location of this.locations) {
        const key = keyOf(monitorId, location);
        const h = this.held.get(key);
        if (!h) continue;
        if (reread) {
          const row = current.get(key);
          if (!row) {
            this.held.drop(key);
            continue;
          }
          h.plan = plans.get(key) ?? null;
          if (row.intervalMs !== h.intervalMs || row.phaseMs !== h.phaseMs) {
            h.intervalMs = row.intervalMs;
            h.phaseMs = row.phaseMs;
            h.slotMs = nextSlotAfter(new Date(now), h.intervalMs, h.phaseMs).getTime();
            if (h.askedMs !== null && !h.running) h.slotMs = Math.min(h.slotMs, h.askedMs);
          }
        }
        // A trigger-check runs now (its time is past: lateness counts from it), a confirmation at its
        // time: a row whose own slot comes first (or that is running) runs that and then the check
        // asked, so every location answers the round. Either way the next slot is back on the grid.
        if (triggeredAt !== null) askCheckAt(h, triggeredAt);
        this.queue.enqueue(h, now);
      }
    }
  }

  /** Every PRUNE_EVERY_MS, forgets changes older than KEEP_CHANGES_MS. */
  async pruneIfDue(now: number): Promise<void> {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    await this.schedule.prune(KEEP_CHANGES_MS);
  }

  /** Reads the changes since the last round that name held monitors, each once (null: the worker was fenced meanwhile). */
  private async read(now: number, generation: number): Promise<Map<number, Touched> | null> {
    const touched = new Map<number, Touched>();
    let after = this.cursor.from;
    for (;;) {
      const changes = await this.schedule.changesAfter(after, CHANGES_PAGE);
      if (!this.lease.isCurrent(generation)) return null;
      for (const change of changes) {
        after = change.seq;
        const holds = this.locations.some((l) => this.held.has(keyOf(change.monitorId, l)));
        if (!holds || !this.cursor.take(change.seq)) continue;
        const t = touched.get(change.monitorId) ?? { triggeredAt: null, changed: false };
        if (change.triggered) t.triggeredAt = Math.min(t.triggeredAt ?? Infinity, change.at.getTime());
        else t.changed = true;
        touched.set(change.monitorId, t);
      }
      if (changes.length < CHANGES_PAGE) break;
    }
    this.cursor.settle(now, after);
    return touched;
  }
}
