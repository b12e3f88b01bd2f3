/**
 * Items due at points in time, kept in buckets of `tickMs` so that tens of thousands of them cost
 * one map entry each and no timer: the host calls `advance(now)` on a timer of its own and gets
 * what fell due, bucket by bucket in time order. An item is in at most one bucket: scheduling it
 * again moves it (the old bucket's reference is skipped), and `cancel` takes it out. Time is passed in.
 */
export class TimerWheel<T> {
  private readonly buckets = new Map<number, T[]>();
  /** The bucket each scheduled item waits in. */
  private readonly waiting = new Map<T, number>();
  /** The last bucket handed out. */
  private cursor: number;

  constructor(
    private readonly tickMs: number,
    now: number,
  ) {
    this.cursor = Math.floor(now / tickMs) - 1;
  }

  /** Items waiting. */
  get size(): number {
    return this.waiting.size;
  }

  /**
   * Schedules `item` at `atMs`. Answers false, scheduling nothing, when that bucket was handed out
   * already: the item is due now and the caller runs it.
   */
  schedule(item: T, atMs: number): boolean {
    const tick = Math.floor(atMs / this.tickMs);
    if (tick <= this.cursor) {
      this.waiting.delete(item);
      return false;
    }
    if (this.waiting.get(item) === tick) return true;
    this.waiting.set(item, tick);
    const bucket = this.buckets.get(tick);
    if (bucket) bucket.push(item);
    else this.buckets.set(tick, [item]);
    return true;
  }

  /**
   * When `advance` next hands something out (the end of the first bucket an item still waits in),
   * looking at most `withinMs` past the last bucket handed out; null when nothing waits that soon.
   * Steps through the buckets of that span, stopping at the first: a host asks it once per start
   * and per check's end, not per item waiting.
   */
  nextDueMs(withinMs: number): number | null {
    if (this.waiting.size === 0) return null;
    const last = this.cursor + Math.ceil(withinMs / this.tickMs);
    for (let tick = this.cursor + 1; tick <= last; tick++) {
      const bucket = this.buckets.get(tick);
      if (bucket?.some((item) => this.waiting.get(item) === tick)) return (tick + 1) * this.tickMs;
    }
    return null;
  }

  cancel(item: T): void {
    this.waiting.delete(item);
  }

  /**
   * Hands out, in time order, the items of every bucket that ended by `now` (an item is at most one
   * bucket late, never early).
   */
  advance(now: number): T[] {
    const upTo = Math.floor(now / this.tickMs) - 1;
    if (upTo <= this.cursor) return [];
    const ticks =
      upTo - this.cursor > this.buckets.size
        ? [...this.buckets.keys()].filter((tick) => tick <= upTo).sort((a, b) => a - b)
        : Array.from({ length: upTo - this.cursor }, (_, i) => this.cursor + 1 + i);
    const due: T[] = [];
    for (const tick of ticks) {
      const bucket = this.buckets.get(tick);
      if (!bucket) continue;
      this.buckets.delete(tick);
      for (const item of bucket) {
        if (this.waiting.get(item) !== tick) continue;
        this.waiting.delete(item);
        due.push(item);
      }
    }
    this.cursor = upTo;
    return due;
  }

  clear(): void {
    this.buckets.clear();
    this.waiting.clear();
  }
}
