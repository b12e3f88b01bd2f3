import type { AlertPolicy } from '../../domain/results/alert-policy';
import type { CheckStatus, CheckTimings } from '../../domain/results/check-status';
import type { DateRange } from '../../domain/results/date-range';
import type { SeriesCell } from '../../domain/results/response-series';
import type { CoverageTotals } from '../../domain/results/uptime-figures';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { token } from '../shared/token';
import type { Transaction } from '../shared/transaction';

/** What results and incidents need to know of a monitor (the monitors context owns the record). */
export interface MonitorRef {
  readonly monitorId: number;
  readonly publicId: string;
  readonly organizationId: number;
  readonly customerId: number;
  readonly name: string;
  readonly checkIntervalSeconds: number;
  readonly locations: readonly string[];
  readonly createdAt: Date;
}

export interface MonitorLookup {
  /**
   * By legacy integer id or publicId, inside the caller's scope; null when not visible. `kind`
   * (website, dns, tcp, ...) narrows it to monitors of that kind: another kind's id is not found.
   */
  resolve(scope: TenantScope, ref: string, kind?: string): Promise<MonitorRef | null>;
  /** The check engine's view: the monitor and its alert settings, unscoped; null when it is gone. */
  alertProfile(monitorId: number): Promise<AlertProfile | null>;
  /** The same for many monitors in one read; monitors that are gone are left out. */
  alertProfiles(monitorIds: readonly number[]): Promise<Map<number, AlertProfile>>;
  /** `alertProfiles` on the caller's transaction (the check engine's batch, judged inside it). */
  alertProfilesIn(monitorIds: readonly number[], tx: Transaction): Promise<Map<number, AlertProfile>>;
}

export interface AlertProfile {
  readonly monitor: MonitorRef;
  readonly policy: AlertPolicy;
  /** The monitors it depends on (docs/dependencies.md), in the order named; empty for most. */
  readonly dependsOn: readonly number[];
}
export const MONITOR_LOOKUP = token<MonitorLookup>('MonitorLookup');

/** Failure screenshots, which the checks context keeps, go with the raw results they illustrate. */
export interface ScreenshotRetention {
  /** Deletes screenshots taken before `before`; answers how many. */
  purgeBefore(before: Date): Promise<number>;
}

/** Time an uptime report leaves out for a monitor (maintenance windows marked excludeFromUptime). */
export interface UptimeExclusions {
  /** The spans within the range, in any order; they may overlap. */
  spans(monitorId: number, range: DateRange): Promise<DateRange[]>;
}
export const UPTIME_EXCLUSIONS = token<UptimeExclusions>('UptimeExclusions');

export interface ResultDetail {
  readonly message: string | null;
  readonly timings: CheckTimings;
  readonly evidence: Record<string, unknown>;
}

export interface StoredResult {
  readonly monitorId: number;
  readonly location: string;
  readonly status: CheckStatus;
  readonly responseTimeMs: number | null;
  readonly reasonCode: string | null;
  /** Kept for every non-up result and a sample of up results (see keepsDetail). */
  readonly detail: ResultDetail | null;
  readonly checkedAt: Date;
}

export interface HistoryQuery {
  readonly range: DateRange;
  readonly location: string | null;
  readonly page: number;
  readonly perPage: number;
}

export interface ResultStore {
  append(result: StoredResult, tx: Transaction): Promise<void>;
  /** Many results in one statement (`tx`: the caller's transaction, which it joins). */
  appendMany(results: readonly StoredResult[], tx: Transaction): Promise<void>;
  /** Newest first. */
  history(monitorId: number, query: HistoryQuery): Promise<{ items: StoredResult[]; total: number }>;
}
export const RESULT_STORE = token<ResultStore>('ResultStore');

/** The stretch the rollups cover, [from, to); before `dailyTo` (null: nowhere) they are daily rows. */
export interface RolledUp {
  readonly from: Date;
  readonly to: Date;
  readonly dailyTo: Date | null;
}

export interface CoverageReader {
  /** The hours the rollups cover; null before the first rollup. */
  rolledUp(): Promise<RolledUp | null>;
  /** Time-weighted coverage from raw results; a result stands for at most `coverageSeconds`. */
  rawCoverage(monitorId: number, range: DateRange, coverageSeconds: number): Promise<CoverageTotals>;
  /** The same from hourly rollups, for whole hours. */
  rollupCoverage(monitorId: number, range: DateRange): Promise<CoverageTotals>;
  /** When the monitor's first kept result (raw or rolled up) was taken: monitoring started then; null before any. */
  firstResultAt(monitorId: number): Promise<Date | null>;
}
export const COVERAGE_READER = token<CoverageReader>('CoverageReader');

/** Partitions, downsampling and retention of the result store. */
export interface ResultMaintenance {
  /** Creates the daily partitions from `today` to `today + aheadDays`; answers how many were created. */
  ensurePartitions(today: Date, aheadDays: number): Promise<number>;
  /** Drops the daily partitions that end on or before `before`; answers their names. */
  dropPartitionsBefore(before: Date): Promise<string[]>;
  rolledUp(): Promise<RolledUp | null>;
  /** Rolls up one hour for every monitor and moves the rolled-up stretch to end after it. */
  rollUpHour(hour: Date, isFirst: boolean): Promise<void>;
  /** Closed hours late results landed in after they were rolled up (a probe's replay), oldest first. */
  hoursToRollUpAgain(): Promise<Date[]>;
  /** Rolls one such hour up again, with its late results, and forgets its mark (the stretch does not move). */
  rollUpHourAgain(hour: Date): Promise<void>;
  /** Deletes rollups of hours before `before` and moves the stretch's start. */
  purgeRollupsBefore(before: Date): Promise<number>;
  /** The days (UTC midnights) that have a raw partition, in order. */
  partitionDays(): Promise<Date[]>;
  /** Packs one day's raw results into compact rows (one per monitor, location and day) and drops its partition, in one transaction; answers the results packed. */
  compactDay(day: Date): Promise<number>;
  /** Deletes the compact rows (one per monitor, location and UTC day) that end at or before `before`; answers how many. */
  purgeCompactBefore(before: Date): Promise<number>;
  /** Merges one UTC day of hourly rollups into one row per monitor and location, and moves `dailyTo` past it. */
  mergeRollupDay(day: Date): Promise<number>;
}
export const RESULT_MAINTENANCE = token<ResultMaintenance>('ResultMaintenance');

/** Response times per location and bucket, for charts (see response-series.ts). */
export interface ResponseSeriesReader {
  /** Cells of buckets of `bucketMs` from the raw results in [from, to). */
  fromResults(monitorId: number, from: Date, to: Date, bucketMs: number): Promise<SeriesCell[]>;
  /** The same from the hourly rollups, and from the raw results past what they cover. */
  fromRollups(monitorId: number, from: Date, to: Date, bucketMs: number): Promise<SeriesCell[]>;
}
export const RESPONSE_SERIES_READER = token<ResponseSeriesReader>('ResponseSeriesReader');
