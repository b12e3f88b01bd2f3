import { z } from 'zod';
import { GetCheckHistory } from '../../../application/results/get-check-history';
import { GetUptimeStats, UPTIME_PERIODS, type UptimePeriod } from '../../../application/results/get-uptime-stats';
import { GetResponseTimes, type ResponseTimes } from '../../../application/results/get-response-times';
import { SERIES_PERIODS, type SeriesPeriod } from '../../../domain/results/response-series';
import { ApiRouter } from '../shared/api-router';
import { PageQuery, paged, pagedSchema } from '../shared/paging';
import { defineRouter } from '../shared/router-deps';
import { presentCheckResult, presentUptimeStats } from './presenters';
import { CheckResultSchema, DateParam, UptimeStatsSchema } from './schemas';

const IdParams = z.object({ id: z.string().min(1).max(64).meta({ description: 'publicId or legacy integer id' }) });
const PERIODS = Object.keys(UPTIME_PERIODS) as [UptimePeriod, ...UptimePeriod[]];
const SERIES = Object.keys(SERIES_PERIODS) as [SeriesPeriod, ...SeriesPeriod[]];

const Ms = z.number().int().nullable();
const ResponseTimesSchema = z
  .object({
    period: z.enum(SERIES),
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    bucketSeconds: z.number().int(),
    locations: z.array(
      z.object({
        location: z.string(),
        points: z.array(
          z
            .object({
              start: z.iso.datetime(),
              median: Ms.meta({ description: 'Milliseconds; null when no response time was measured in the bucket' }),
              p95: Ms.meta({ description: 'Milliseconds, 95th percentile' }),
              checks: z.number().int(),
              degraded: z.number().int(),
              down: z.number().int(),
            })
            .meta({ id: 'ResponseTimePoint' }),
        ),
      }),
    ),
  })
  .meta({ id: 'ResponseTimes' });

const presentResponseTimes = (series: ResponseTimes) => ({
  period: series.period,
  from: series.from.toISOString(),
  to: series.to.toISOString(),
  bucketSeconds: series.bucketSeconds,
  locations: series.locations.map(({ location, points }) => ({
    location,
    points: points.map((p) => ({
      start: p.start.toISOString(),
      median: p.median,
      p95: p.p95,
      checks: p.checks,
      degraded: p.degraded,
      down: p.down,
    })),
  })),
});

const CheckResultPage = pagedSchema(CheckResultSchema, 'CheckResultPage');

const UPTIME_DESCRIPTION =
  'period 24h (default), 7d, 30d or 90d ending now, or a from/to range (which then wins over period). Time is ' +
  'weighted: a result stands until the next one of its location, at most the check interval plus a grace. Time no ' +
  'result stands for (the checker was not running, the monitor was paused) is unknown and never counts as up or down. ' +
  "Every share has one denominator, the window: the expected location-time (the counted span, from the monitor's " +
  'first result at the earliest (monitoredSince) to now at the latest, times its locations). uptimePercent = (up + degraded) / window, ' +
  'downtimePercent = down / window, unknownPercent = unknown / window, so uptimePercent + downtimePercent + ' +
  'unknownPercent = 100 exactly; degradedPercent = degraded / window is the part of uptimePercent the target answered ' +
  'degraded. uptimeOfKnownPercent = (up + degraded) / (up + degraded + down) is uptime of the observed time only ' +
  '(null when nothing was observed). Two decimals, apportioned by largest remainder so that the parts still add up to ' +
  '100.00; the shares are null only for an empty window (a range before the monitor existed). Percentiles ' +
  'come from response-time histograms (down results excluded), accurate to a bucket (at most ~25% wide).';

const SERIES_DESCRIPTION =
  'For a chart: per location, one point per bucket of the period ending now (1h: minutes; 24h: 15 minutes; 7d: hours; ' +
  '30d: 6 hours; 90d: days; UTC-aligned, oldest first, empty buckets included), each with the median and 95th ' +
  'percentile response time (from histograms, accurate to a bucket of at most ~25 %; down results have none) and ' +
  'how many checks were made, degraded and down. A day or less is read from the raw results; longer periods from ' +
  'the hourly rollups and the raw results not rolled up yet.';

/** Where results are read: websites (any monitor's id is taken there, as before), and each kind's own path. */
const basesFor = (kinds: readonly string[]) => [
  { base: '/api/websites', op: 'Website', kind: undefined, notFound: 'websiteNotFound' as const, tags: ['Websites'] as const },
  ...kinds.map((kind) => ({
    base: `/api/monitors/${kind}`,
    op: `${kind.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase())}Monitor`,
    kind,
    notFound: 'monitorNotFound' as const,
    tags: ['Monitors'] as const,
  })),
];

/**
 * A monitor's stored check results, uptime and response times: under /api/websites/{id} (which
 * answers for a monitor of any kind) and under /api/monitors/{kind}/{id} (only that kind: another
 * kind's id is monitorNotFound). The kinds are the monitoring context's, handed in where the
 * modules are put together (this context does not depend on monitoring).
 */
export const resultsRouterFor = (kinds: readonly string[]) =>
  defineRouter({ getCheckHistory: GetCheckHistory, getUptimeStats: GetUptimeStats, getResponseTimes: GetResponseTimes }, (deps, use) => {
    const router = new ApiRouter(deps);
    for (const { base, op, kind, notFound, tags } of basesFor(kinds)) {
      const which = kind ? `The ${kind} monitor's` : "The website's (or any monitor's)";
      router
        .route({
          operationId: `get${op}CheckHistory`,
          method: 'get',
          path: `${base}/{id}/check-history`,
          tags,
          summary: 'Stored check results, newest first',
          description:
            `${which} results: one item per check and location. from defaults to 24 hours before to, to to now; both are inclusive. ` +
            'invalidDateRange when from or to is not an ISO 8601 date, or from is after to. An unknown location matches ' +
            'nothing. Timings, message and evidence are kept for every non-up result and a sample of up results ' +
            '(RESULTS_DETAIL_SAMPLE_MINUTES); results are kept RESULTS_RETENTION_DAYS days.',
          params: IdParams,
          query: z
            .object({ ...PageQuery, from: DateParam.optional(), to: DateParam.optional(), location: z.string().min(1).max(64).optional() })
            .strict(),
          response: CheckResultPage,
          errors: ['invalidDateRange', notFound],
          handler: async ({ actor, params, query }) => {
            const { items, total } = await use.getCheckHistory.execute(actor, { ...query, websiteId: params.id, kind });
            return paged(items.map(presentCheckResult), total, query);
          },
        })
        .route({
          operationId: `get${op}UptimeStats`,
          method: 'get',
          path: `${base}/{id}/uptime-stats`,
          tags,
          summary: 'Uptime and response-time percentiles',
          description: `${which} uptime. ${UPTIME_DESCRIPTION}`,
          params: IdParams,
          query: z.object({ period: z.enum(PERIODS).optional(), from: DateParam.optional(), to: DateParam.optional() }).strict(),
          response: UptimeStatsSchema,
          errors: ['invalidDateRange', notFound],
          handler: async ({ actor, params, query }) =>
            presentUptimeStats(await use.getUptimeStats.execute(actor, { ...query, websiteId: params.id, kind })),
        })
        .route({
          operationId: `get${op}ResponseTimes`,
          method: 'get',
          path: `${base}/{id}/response-times`,
          tags,
          summary: 'Response times per location over time',
          description: `${which} response times. ${SERIES_DESCRIPTION}`,
          params: IdParams,
          query: z.object({ period: z.enum(SERIES).default('24h') }).strict(),
          response: ResponseTimesSchema,
          errors: [notFound],
          handler: async ({ actor, params, query }) =>
            presentResponseTimes(await use.getResponseTimes.execute(actor, { websiteId: params.id, period: query.period, kind })),
        });
    }
    return router.router;
  });
