import type { CurrentState } from '../incidents/current-state';
import type { CheckStatus } from '../results/check-status';

/**
 * What an overview says a monitor is now, most urgent first: down (its incident is open), degraded
 * (up, but its newest result was degraded), unknown (too few live locations, or nothing yet),
 * in maintenance, paused, up.
 */
export const OVERVIEW_STATES = ['down', 'degraded', 'unknown', 'maintenance', 'paused', 'up'] as const;
export type OverviewState = (typeof OVERVIEW_STATES)[number];

export interface OverviewFacts {
  readonly paused: boolean;
  readonly inMaintenance: boolean;
  readonly current: CurrentState;
  /** The newest stored result's status, if any is recent. */
  readonly lastStatus: CheckStatus | null;
}

/** Paused and maintenance say why nothing is told; then what the alert rules decided; degraded from the newest result. */
export function overviewStateOf(facts: OverviewFacts): OverviewState {
  if (facts.paused) return 'paused';
  if (facts.inMaintenance) return 'maintenance';
  // Held back by a monitor it depends on: down all the same (the root's incident tells it).
  if (facts.current.status === 'down' || facts.current.status === 'dependencyDown') return 'down';
  if (facts.current.status === 'unknown') return 'unknown';
  return facts.lastStatus === 'degraded' ? 'degraded' : 'up';
}

/** Most urgent first. */
export const urgencyOf = (state: OverviewState): number => OVERVIEW_STATES.indexOf(state);

/** The spans an uptime bar can cover: 24 hourly buckets, or 90 daily ones. */
export const BAR_SPANS = {
  '24h': { buckets: 24, bucketMs: 3_600_000 },
  '90d': { buckets: 90, bucketMs: 86_400_000 },
} as const;
export type BarSpan = keyof typeof BAR_SPANS;

/** Time seen in each status within one bucket (seconds, or counts of checks where seconds are unknown). */
export interface BucketTally {
  readonly start: Date;
  readonly up: number;
  readonly degraded: number;
  readonly down: number;
}

export interface BarBucket {
  readonly start: Date;
  /** Share of the known time in each status (summing to 1); all null when nothing was checked. */
  readonly up: number | null;
  readonly degraded: number | null;
  readonly down: number | null;
}

/** The first bucket's start for a bar ending with the bucket that holds `now` (UTC-aligned). */
export function barStart(span: BarSpan, now: Date): Date {
  const { buckets, bucketMs } = BAR_SPANS[span];
  const current = Math.floor(now.getTime() / bucketMs) * bucketMs;
  return new Date(current - (buckets - 1) * bucketMs);
}

/**
 * A bar of `span` buckets ending at the bucket holding `now`, from tallies that may come in several
 * parts per bucket (rolled-up hours and raw results of the same day): parts of one bucket add up,
 * and each bucket is told as shares of the time that was known.
 */
export function barOf(span: BarSpan, now: Date, tallies: readonly BucketTally[]): BarBucket[] {
  const { buckets, bucketMs } = BAR_SPANS[span];
  const from = barStart(span, now).getTime();
  const sums = Array.from({ length: buckets }, () => ({ up: 0, degraded: 0, down: 0 }));
  for (const tally of tallies) {
    const index = Math.floor((tally.start.getTime() - from) / bucketMs);
    const sum = sums[index];
    if (!sum) continue;
    sum.up += tally.up;
    sum.degraded += tally.degraded;
    sum.down += tally.down;
  }
  return sums.map((sum, index) => {
    const known = sum.up + sum.degraded + sum.down;
    const share = (part: number) => (known === 0 ? null : Math.round((part / known) * 10_000) / 10_000);
    return { start: new Date(from + index * bucketMs), up: share(sum.up), degraded: share(sum.degraded), down: share(sum.down) };
  });
}
