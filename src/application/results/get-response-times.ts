import {
  fromRawResults,
  SERIES_PERIODS,
  seriesOf,
  seriesStart,
  type SeriesPeriod,
  type SeriesPoint,
} from '../../domain/results/response-series';
import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { MonitorLookup, ResponseSeriesReader } from './ports';

export interface ResponseTimes {
  readonly period: SeriesPeriod;
  readonly from: Date;
  readonly to: Date;
  readonly bucketSeconds: number;
  readonly locations: Array<{ location: string; points: SeriesPoint[] }>;
}

/**
 * GET /api/websites/{id}/response-times: a monitor's response times per location over a period,
 * median and 95th percentile per bucket with its failures, from the raw results for a day or less
 * and from the hourly rollups beyond.
 */
export class GetResponseTimes {
  constructor(
    private readonly monitors: MonitorLookup,
    private readonly series: ResponseSeriesReader,
    private readonly clock: Clock,
  ) {}

  /** `kind`, named by the per-kind paths: only a monitor of this kind is found (else monitorNotFound). */
  async execute(actor: Actor, input: { websiteId: string; period: SeriesPeriod; kind?: string }): Promise<ResponseTimes> {
    const monitor = await this.monitors.resolve(actor.scope, input.websiteId, input.kind);
    if (!monitor) throw new AppError(input.kind ? 'monitorNotFound' : 'websiteNotFound');
    const now = this.clock.now();
    const { bucketMs } = SERIES_PERIODS[input.period];
    const from = seriesStart(input.period, now);
    const to = new Date(from.getTime() + SERIES_PERIODS[input.period].spanMs);
    const cells = fromRawResults(input.period)
      ? await this.series.fromResults(monitor.monitorId, from, to, bucketMs)
      : await this.series.fromRollups(monitor.monitorId, from, to, bucketMs);
    return { period: input.period, from, to, bucketSeconds: bucketMs / 1000, locations: seriesOf(input.period, now, cells) };
  }
}
