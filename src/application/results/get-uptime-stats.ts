import { AppError } from '../../domain/shared/app-error';
import { coverageSeconds } from '../../domain/results/coverage';
import { parseDateRange, type DateRange } from '../../domain/results/date-range';
import { planSegments } from '../../domain/results/stats-segments';
import { withoutSpans } from '../../domain/results/excluded-time';
import { addCoverage, emptyCoverage, uptimeFigures, type UptimeFigures } from '../../domain/results/uptime-figures';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { CoverageReader, MonitorLookup, MonitorRef, UptimeExclusions } from './ports';

export const UPTIME_PERIODS = { '24h': 24, '7d': 7 * 24, '30d': 30 * 24, '90d': 90 * 24 } as const;
export type UptimePeriod = keyof typeof UPTIME_PERIODS;

export interface UptimeStatsInput {
  websiteId: string;
  /** Named by the per-kind paths: only a monitor of this kind is found (else monitorNotFound). */
  kind?: string;
  /** Ignored when from or to is given. Default 24h. */
  period?: UptimePeriod;
  from?: string;
  to?: string;
}

export interface UptimeStats extends UptimeFigures {
  period: UptimePeriod | 'range';
  from: Date;
  to: Date;
  /** Where the figures start: the later of `from` and the monitor's first result; null when nothing is known. */
  monitoredSince: Date | null;
  locations: string[];
}

const HOUR_MS = 60 * 60_000;

/**
 * Uptime and response-time percentiles of a website over a period or a range: whole hours from the
 * hourly rollups, the rest (partial hours, the recent tail) from the raw results. The range is
 * clipped to the time actually monitored, from the monitor's first result (not its creation: the
 * minutes before its first check are not "unknown" against it) to now, and answers since when
 * (`monitoredSince`); with nothing known yet every share is null. Maintenance whose window excludes
 * it from uptime is left out.
 */
export class GetUptimeStats {
  constructor(
    private readonly monitors: MonitorLookup,
    private readonly coverage: CoverageReader,
    private readonly clock: Clock,
    private readonly exclusions: UptimeExclusions = { spans: async () => [] },
  ) {}

  async execute(actor: Actor, input: UptimeStatsInput): Promise<UptimeStats> {
    const now = this.clock.now();
    const byRange = input.from !== undefined || input.to !== undefined;
    const period = input.period ?? '24h';
    const range = parseDateRange(byRange ? input : {}, { now, spanMs: UPTIME_PERIODS[period] * HOUR_MS });
    const monitor = await this.monitors.resolve(actor.scope, input.websiteId, input.kind);
    if (!monitor) throw new AppError(input.kind ? 'monitorNotFound' : 'websiteNotFound');
    const { figures, locations, monitoredSince } = await this.figuresFor(monitor, range, now);
    return {
      period: byRange ? 'range' : period,
      from: range.from,
      to: range.to,
      monitoredSince,
      locations,
      ...figures,
    };
  }

  /**
   * The figures of a monitor over a range already resolved (reports use it for each monitor they
   * cover): clipped to the monitor's creation and to now, maintenance excluded as its windows say.
   */
  async figuresFor(
    monitor: MonitorRef,
    range: DateRange,
    now: Date,
  ): Promise<{ figures: UptimeFigures; locations: string[]; monitoredSince: Date | null }> {
    const first = await this.coverage.firstResultAt(monitor.monitorId);
    if (first === null)
      return { figures: uptimeFigures(emptyCoverage(), 0, monitor.locations.length), locations: [], monitoredSince: null };
    const counted: DateRange = {
      from: new Date(Math.max(range.from.getTime(), monitor.createdAt.getTime(), first.getTime())),
      to: new Date(Math.min(range.to.getTime(), now.getTime())),
    };
    const monitoredSince = counted.from.getTime() < counted.to.getTime() ? counted.from : null;
    let totals = emptyCoverage();
    let seconds = 0;
    if (counted.from.getTime() < counted.to.getTime()) {
      const cap = coverageSeconds(monitor.checkIntervalSeconds);
      const rolledUp = await this.coverage.rolledUp();
      for (const piece of withoutSpans(counted, await this.exclusions.spans(monitor.monitorId, counted))) {
        seconds += (piece.to.getTime() - piece.from.getTime()) / 1000;
        for (const segment of planSegments(piece, rolledUp)) {
          const part =
            segment.source === 'raw'
              ? await this.coverage.rawCoverage(monitor.monitorId, segment, cap)
              : await this.coverage.rollupCoverage(monitor.monitorId, segment);
          totals = addCoverage(totals, part);
        }
      }
    }
    return { figures: uptimeFigures(totals, seconds, monitor.locations.length), locations: [...totals.locations], monitoredSince };
  }
}
