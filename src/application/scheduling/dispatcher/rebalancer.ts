import type { CheckSchedule } from '../ports';
import { claimedOf, keyOf, type HeldCheck, type HeldChecks } from './held-checks';
import type { WorkerLease } from './worker-lease';

/** How often a worker compares what it holds with its share of each location's rows. */
const REBALANCE_EVERY_MS = 10_000;
/**
 * How often a worker that was alone at its last count counts again in rounds no notice woke: a
 * worker joining announces itself (its registration notifies `check_schedule`), and a round a
 * notice wakes counts at once (at most every COUNT_ALONE_WOKEN_MS, as notices of edits come in
 * bursts); this is the fallback for a notice lost.
 */
export const COUNT_ALONE_EVERY_MS = 60_000;
export const COUNT_ALONE_WOKEN_MS = 1_000;
/** A worker holds up to this much over its share (new monitors are taken at once; no churn over a few rows). */
const SHARE_SLACK = 1.05;

/** Where a claim round may take rows: the locations with room, and how many rows in all. */
export interface ClaimRoom {
  readonly locations: readonly string[];
  readonly rows: number;
}

/**
 * The worker's fair share of each location's rows (its rows over the live workers serving it, and
 * a little slack), and the hand-back of what it holds beyond it, so a worker joining later gets
 * rows to run. Shares are per location: a worker serving a location alone holds all of it, whoever
 * else shares its other locations (every worker serves `heartbeat`).
 */
export class Rebalancer {
  private lastRebalance = 0;
  /** Per location, the most rows this worker holds (none counted yet: no limit). */
  private readonly most = new Map<string, number>();
  private aloneAtLastCount = false;
  /** A notice woke a round since the last count (it may have been a worker joining): counted at the first round a second on. */
  private wokenSinceCount = false;

  constructor(
    private readonly schedule: CheckSchedule,
    private readonly held: HeldChecks,
    private readonly lease: WorkerLease,
    private readonly locations: readonly string[],
  ) {}

  /** Room for claims under each location's share (one location may overshoot: the next rebalance evens it out). */
  room(): ClaimRoom {
    const room = this.locations.map((l) => (this.most.get(l) ?? Infinity) - this.held.countIn(l));
    return {
      locations: this.locations.filter((_, i) => room[i]! > 0),
      rows: room.reduce((sum, r) => sum + Math.max(0, r), 0),
    };
  }

  /**
   * Whether the last count found no other worker registered for any of this worker's locations,
   * live, lapsed or fenced (so none whose rows it could have to take over). Not until counted.
   */
  get alone(): boolean {
    return this.aloneAtLastCount;
  }

  /**
   * Every REBALANCE_EVERY_MS, counts the shares again and hands back the excess. A worker alone at
   * its last count counts every COUNT_ALONE_EVERY_MS while only `quiet` rounds (no notice woke them)
   * come, and once a notice woke one (it may be a worker joining), at the first round
   * COUNT_ALONE_WOKEN_MS after its last count.
   */
  async rebalanceIfDue(now: Date, quiet = false): Promise<void> {
    if (!quiet && this.aloneAtLastCount) this.wokenSinceCount = true;
    const everyMs = !this.aloneAtLastCount ? REBALANCE_EVERY_MS : this.wokenSinceCount ? COUNT_ALONE_WOKEN_MS : COUNT_ALONE_EVERY_MS;
    if (now.getTime() - this.lastRebalance < everyMs) return;
    this.lastRebalance = now.getTime();
    this.wokenSinceCount = false;
    await this.rebalance(now);
  }

  /** Counts the shares anew at the next round (a new generation of the worker). */
  reset(): void {
    this.lastRebalance = 0;
    this.most.clear();
    this.aloneAtLastCount = false;
    this.wokenSinceCount = false;
  }

  /** Hands back rows beyond the share: neither running nor waiting to be recorded, each at its next slot. */
  private async rebalance(now: Date): Promise<void> {
    const excess = new Map<string, number>();
    const loads = await this.schedule.load(this.locations, now);
    this.aloneAtLastCount = loads.every((load) => load.registered <= 1);
    for (const { location, rows, workers } of loads) {
      // Alone in a location it holds all of it, including rows that appear before the next count
      // (a fresh install's first monitors would otherwise wait for it, having counted none).
      const most = workers <= 1 ? Infinity : Math.ceil(Math.ceil(rows / workers) * SHARE_SLACK);
      this.most.set(location, most);
      const over = this.held.countIn(location) - most;
      if (over > 0) excess.set(location, over);
    }
    // Usually nothing is over its share: then the held rows are not walked at all.
    if (excess.size === 0) return;
    const handed: HeldCheck[] = [];
    for (const h of this.held.values()) {
      const over = excess.get(h.location) ?? 0;
      if (over === 0 || h.running || h.unrecorded) continue;
      handed.push(h);
      excess.set(h.location, over - 1);
    }
    if (handed.length === 0) return;
    await this.schedule.release(
      this.lease.workerId,
      handed.map((h) => claimedOf(h)),
    );
    for (const h of handed) this.held.drop(keyOf(h.monitorId, h.location));
  }
}
