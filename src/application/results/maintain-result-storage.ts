import type { Clock } from '../shared/clock';
import type { ScreenshotStore } from '../checks/ports';
import type { ResultMaintenance } from './ports';

export interface ResultStorageSettings {
  /** RESULTS_RETENTION_DAYS: raw results (check-history) are kept this long. */
  readonly resultsRetentionDays: number;
  /** ROLLUP_RETENTION_DAYS: hourly rollups (uptime-stats) are kept this long. */
  readonly rollupRetentionDays: number;
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
  rollupsPurged: number;
  screenshotsPurged: number;
}

/**
 * The result store's upkeep (hourly job, and once at start): partitions ahead of time, hourly
 * rollups of every completed hour in order, then retention. A raw partition is dropped only once
 * its hours are rolled up, so uptime history outlives raw results. Failure screenshots of
 * scenarios are kept as long as raw results.
 */
export class MaintainResultStorage {
  constructor(
    private readonly store: ResultMaintenance,
    private readonly settings: ResultStorageSettings,
    private readonly clock: Clock,
    private readonly screenshots: Pick<ScreenshotStore, 'purgeBefore'>,
  ) {}

  async execute(): Promise<MaintenanceReport> {
    const now = this.clock.now().getTime();
    const partitionsCreated = await this.store.ensurePartitions(new Date(now), this.settings.partitionsAheadDays);
    const hoursRolledUp = await this.rollUp(now);
    const rolled = await this.store.rolledUp();
    const rawLimit = now - this.settings.resultsRetentionDays * DAY_MS;
    const partitionsDropped = rolled ? await this.store.dropPartitionsBefore(new Date(Math.min(rawLimit, rolled.to.getTime()))) : [];
    const rollupsPurged = await this.store.purgeRollupsBefore(new Date(floorHour(now - this.settings.rollupRetentionDays * DAY_MS)));
    const screenshotsPurged = await this.screenshots.purgeBefore(new Date(rawLimit));
    return { partitionsCreated, partitionsDropped, hoursRolledUp, rollupsPurged, screenshotsPurged };
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
