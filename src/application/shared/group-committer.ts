/** How a group committer forms its batches. */
export interface GroupCommitBounds {
  /** A batch holds at most this many items; the item that fills one sends it at once. */
  readonly maxSize: number;
  /** A batch is sent at most this many milliseconds after its first item arrived. */
  readonly maxWaitMs: number;
}

/** Commits a batch: one result per item, in the items' order, once the whole batch is durable. */
export type CommitBatch<I, O> = (items: readonly I[]) => Promise<readonly O[]>;

interface Waiting<I, O> {
  readonly item: I;
  resolve(result: O): void;
  reject(error: unknown): void;
}

/**
 * Group commit: items submitted within a few milliseconds of each other are committed together by
 * one call of `commit`, and each submitter is answered only once its batch is committed. A batch is
 * sent when it holds `maxSize` items or `maxWaitMs` after its first item, whichever comes first;
 * batches already sent commit concurrently (the connection pool bounds them). A batch that fails
 * fails only its own items, with its error; the items of other batches are not touched.
 */
export class GroupCommitter<I, O> {
  private pending: Waiting<I, O>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private committing = 0;

  constructor(
    private readonly commit: CommitBatch<I, O>,
    readonly bounds: GroupCommitBounds,
  ) {
    if (!(bounds.maxSize >= 1) || !(bounds.maxWaitMs >= 0)) throw new RangeError('A batch needs maxSize >= 1 and maxWaitMs >= 0');
  }

  /** Batches sent and not yet committed (or failed). */
  get inFlight(): number {
    return this.committing;
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.bounds.maxSize) this.send();
      else this.timer ??= setTimeout(() => this.send(), this.bounds.maxWaitMs);
    });
  }

  /** Sends what is pending now, without waiting for the bounds (shutdown). */
  flushNow(): void {
    if (this.pending.length > 0) this.send();
  }

  private send(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
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
        if (results.length !== batch.length) {
          const error = new Error(`A batch of ${batch.length} was committed with ${results.length} results`);
          for (const waiting of batch) waiting.reject(error);
          return;
        }
        batch.forEach((waiting, i) => waiting.resolve(results[i]!));
      },
      (error: unknown) => {
        this.committing--;
        for (const waiting of batch) waiting.reject(error);
      },
    );
  }
}
