/** How a group committer forms its batches. */
export interface GroupCommitBounds {
  /** A batch holds at most this many items; the item that fills one seals it. */
  readonly maxSize: number;
  /** A batch is sent at most this many milliseconds after its first item, when a commit slot is free. */
  readonly maxWaitMs: number;
  /**
   * Batches committing at once (default 2). While they all are, the open batch keeps growing (up to
   * maxSize) and is sent as soon as one of them finishes: under load, batches grow instead of queueing.
   */
  readonly maxConcurrent?: number;
}

/** Commits a batch: one result per item, in the items' order, once the whole batch is durable. */
export type CommitBatch<I, O> = (items: readonly I[]) => Promise<readonly O[]>;

/** What an item counts for against maxSize (1 unless told: an item may carry several records). */
export type WeighItem<I> = (item: I) => number;

interface Waiting<I, O> {
  readonly item: I;
  resolve(result: O): void;
  reject(error: unknown): void;
}

/**
 * Group commit: items submitted within a few milliseconds of each other are committed together by
 * one call of `commit`, and each submitter is answered only once its batch is committed. A batch is
 * sealed when it holds `maxSize` items and sent `maxWaitMs` after its first item; at most
 * `maxConcurrent` batches commit at once, so while they do, the open batch waits for the first to
 * finish and takes what arrives meanwhile (the wait of an item is then bounded by that commit). A
 * batch that fails fails only its own items, with its error; the items of other batches are not
 * touched. With `weigh`, maxSize bounds the items' total weight: an item is never split, an item
 * that would take the open batch past maxSize seals it and opens the next, and an item heavier
 * than maxSize is a batch of its own.
 */
export class GroupCommitter<I, O> {
  private open: Waiting<I, O>[] = [];
  private openWeight = 0;
  private readonly sealed: Waiting<I, O>[][] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The open batch has waited its maxWaitMs. */
  private due = false;
  private committing = 0;
  private readonly maxConcurrent: number;

  constructor(
    private readonly commit: CommitBatch<I, O>,
    readonly bounds: GroupCommitBounds,
    private readonly weigh: WeighItem<I> = () => 1,
  ) {
    this.maxConcurrent = bounds.maxConcurrent ?? 2;
    if (!(bounds.maxSize >= 1) || !(bounds.maxWaitMs >= 0) || !(this.maxConcurrent >= 1)) {
      throw new RangeError('A batch needs maxSize >= 1, maxWaitMs >= 0 and maxConcurrent >= 1');
    }
  }

  /** Batches sent and not yet committed (or failed). */
  get inFlight(): number {
    return this.committing;
  }

  submit(item: I): Promise<O> {
    const weight = Math.max(1, this.weigh(item));
    return new Promise<O>((resolve, reject) => {
      if (this.open.length > 0 && this.openWeight + weight > this.bounds.maxSize) {
        this.sealed.push(this.takeOpen());
        this.pump();
      }
      this.open.push({ item, resolve, reject });
      this.openWeight += weight;
      if (this.openWeight >= this.bounds.maxSize) {
        this.sealed.push(this.takeOpen());
        this.pump();
      } else {
        this.timer ??= setTimeout(() => {
          this.timer = undefined;
          this.due = true;
          this.pump();
        }, this.bounds.maxWaitMs);
      }
    });
  }

  /** Sends what is pending now, without waiting for the bounds (shutdown). */
  flushNow(): void {
    if (this.open.length > 0) this.sealed.push(this.takeOpen());
    while (this.sealed.length > 0) this.send(this.sealed.shift()!);
  }

  private takeOpen(): Waiting<I, O>[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.due = false;
    const batch = this.open;
    this.open = [];
    this.openWeight = 0;
    return batch;
  }

  private pump(): void {
    while (this.committing < this.maxConcurrent) {
      if (this.sealed.length > 0) this.send(this.sealed.shift()!);
      else if (this.due && this.open.length > 0) this.send(this.takeOpen());
      else return;
    }
  }

  private send(batch: Waiting<I, O>[]): void {
    this.committing++;
    let settled: Promise<readonly O[]>;
    try {
      settled = this.commit(batch.map((w) => w.item));
    } catch (error) {
      settled = Promise.reject(error);
    }
    settled.then(
      (results) => {
        this.committing--;
        this.pump();
        if (results.length !== batch.length) {
          const error = new Error(`A batch of ${batch.length} was committed with ${results.length} results`);
          for (const waiting of batch) waiting.reject(error);
          return;
        }
        batch.forEach((waiting, i) => waiting.resolve(results[i]!));
      },
      (error: unknown) => {
        this.committing--;
        this.pump();
        for (const waiting of batch) waiting.reject(error);
      },
    );
  }
}
