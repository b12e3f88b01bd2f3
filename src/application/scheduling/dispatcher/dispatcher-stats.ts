import type { LatenessHistogram } from '../../../domain/scheduling/lateness-histogram';

export interface DispatcherStats {
  started: number;
  recorded: number;
  dropped: number;
  /** Rows this worker holds. */
  readonly held: number;
  /** Start lateness of every started check (cumulative buckets: compare snapshots). */
  readonly lateness: LatenessHistogram;
}
