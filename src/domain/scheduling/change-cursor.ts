/**
 * Where a reader of an append-only, numbered log stands when numbers can commit out of order (a
 * change numbered earlier may become visible after a later one). The reader reads everything after
 * `from` each round; `from` moves up only to what was read `settleMs` ago, so a late commit is still
 * met, and `take` answers true once per number, so re-read entries apply once. Time is passed in.
 */
export class ChangeCursor {
  private floor = 0;
  private readonly taken = new Set<number>();
  /** (round time, highest number read) of recent rounds. */
  private readonly rounds: Array<{ at: number; seq: number }> = [];

  constructor(private readonly settleMs: number) {}

  /** Read the log after this number. */
  get from(): number {
    return this.floor;
  }

  /** Starts over from `floor` (a new reader). */
  reset(floor: number): void {
    this.floor = floor;
    this.taken.clear();
    this.rounds.length = 0;
  }

  /** True the first time a number is taken. */
  take(seq: number): boolean {
    if (this.taken.has(seq)) return false;
    this.taken.add(seq);
    return true;
  }

  /** Ends a round that read up to `highest`: the floor moves to what has settled, and numbers under it are forgotten. */
  settle(now: number, highest: number): void {
    this.rounds.push({ at: now, seq: highest });
    while (this.rounds.length > 0 && this.rounds[0]!.at <= now - this.settleMs) {
      this.floor = Math.max(this.floor, this.rounds.shift()!.seq);
    }
    for (const seq of this.taken) if (seq <= this.floor) this.taken.delete(seq);
  }
}
