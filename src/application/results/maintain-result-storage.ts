import type { Clock } from '../shared/clock';
import { compactRetentionLimit, daysToCompact, rollupDaysToMerge } from '../../domain/results/storage-plan';
import type { ResultMaintenance, ScreenshotRetention } from './ports';

export interface ResultStorageSettings {
  /** RESULTS_RETENTION_DAYS: results (check-history), raw then compact, are kept this long. */
  readonly resultsRetentionDays: number;
  /** RESULTS_RAW_HOURS: a closed day stays raw (one row a result) at least this long after it ends. */
  readonly rawHours: number;
  /** ROLLUP_RETENTION_DAYS: rollups (uptime-stats) are kept this long. */
  readonly rollupRetentionDays: number;
  /** ROLLUP_DAILY_AFTER_DAYS: hourly rollups older than this are merged into daily ones. */
  readonly dailyRollupAfterDays: number;
  /** Daily partitions created ahead of time. */
  readonly partitionsAheadDays: number;
  /** An hour is rolled up this long after it ends, so late results are in. */
  readonly settleMinutes: number;
}

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

export interface MaintenanceReport {
  partitionsCreated: number;
  partitionsDropped: string[];
  hoursRolledUp: number;
  /** Closed hours rolled up again because late results landed in them. */
  hoursRolledUpAgain: number;
  daysCompacted: number;
  resultsCompacted: number;
  compactHoursPurged: number;
  rollupDaysMerged: number;
  rollupsPurged: number;
  screenshotsPurged: number;
}

/**
 * The result store's upkeep (hourly job, and once at start): partitions ahead of time, hourly
 * rollups of every completed hour in order, closed days packed into compact days once rolled up
 * and older than the raw window, old hourly rollups merged into daily ones, then retention. A raw
 * partition is dropped or packed only once its hours are rolled up, so uptime history outlives raw
 * results. Failure screenshots of scenarios are kept as long as results.
 */
export class MaintainResultStorage {
  constructor(
    private readonly store: ResultMaintenance,
    private readonly settings: ResultStorageSettings,
    private readonly clock: Clock,
    private readonly screenshots: ScreenshotRetention,
  ) {}

  async execute(): Promise<MaintenanceReport> {
    const now = this.clock.now().getTime();
    const partitionsCreated = await this.store.ensurePartitions(new Date(now), this.settings.partitionsAheadDays);
    const hoursRolledUp = await this.rollUp(now);
    const again = await this.store.hoursToRollUpAgain();
    for (const hour of again) await this.store.rollUpHourAgain(hour);
    const rolled = await this.store.rolledUp();
    const rawLimit = now - this.settings.resultsRetentionDays * DAY_MS;
    const partitionsDropped = rolled ? await this.store.dropPartitionsBefore(new Date(Math.min(rawLimit, rolled.to.getTime()))) : [];
    const days = daysToCompact(await this.store.partitionDays(), new Date(now), this.settings, rolled?.to ?? null);
    let resultsCompacted = 0;
    for (const day of days) resultsCompacted += await this.store.compactDay(day);
    const compactHoursPurged = await this.store.purgeCompactBefore(
      compactRetentionLimit(new Date(now), this.settings.resultsRetentionDays),
    );
    const merge = rollupDaysToMerge(new Date(now), this.settings.dailyRollupAfterDays, rolled);
    for (const day of merge) await this.store.mergeRollupDay(day);
    const rollupsPurged = await this.store.purgeRollupsBefore(new Date(floorHour(now - this.settings.rollupRetentionDays * DAY_MS)));
    const screenshotsPurged = await this.screenshots.purgeBefore(new Date(rawLimit));
    return {
      partitionsCreated,
      partitionsDropped,
      hoursRolledUp,
      hoursRolledUpAgain: again.length,
      daysCompacted: days.length,
      resultsCompacted,
      compactHoursPurged,
      rollupDaysMerged: merge.length,
      rollupsPurged,
      screenshotsPurged,
    };
  }

  private async rollUp(now: number): Promise<number> {
    const lastComplete = floorHour(now - this.settings.settleMinutes * 60_000);
    const rolled = await this.store.rolledUp();
    let next = rolled?.to.getTime() ?? floorHour(now - this.settings.resultsRetentionDays * DAY_MS);
    let count = 0;
    for (; next + HOUR_MS <= lastComplete; next += HOUR_MS) {
      await this.store.rollUpHour(new Date(next), rolled === null && count === 0);
      count += 1;
    }
    return count;
  }
}
