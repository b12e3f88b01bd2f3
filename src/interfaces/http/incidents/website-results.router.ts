import { z } from 'zod';
import { GetCheckHistory } from '../../../application/results/get-check-history';
import { GetUptimeStats, UPTIME_PERIODS, type UptimePeriod } from '../../../application/results/get-uptime-stats';
import { ApiRouter } from '../shared/api-router';
import { PageQuery, paged, pagedSchema } from '../shared/paging';
import { defineRouter } from '../shared/router-deps';
import { presentCheckResult, presentUptimeStats } from './presenters';
import { CheckResultSchema, DateParam, UptimeStatsSchema } from './schemas';

const tags = ['Websites'] as const;
const IdParams = z.object({ id: z.string().min(1).max(64).meta({ description: 'publicId or legacy integer id' }) });
const PERIODS = Object.keys(UPTIME_PERIODS) as [UptimePeriod, ...UptimePeriod[]];

/** A website's stored check results and its uptime. */
export const websiteResultsRouter = defineRouter({ getCheckHistory: GetCheckHistory, getUptimeStats: GetUptimeStats }, (deps, use) => {
  return new ApiRouter(deps)
    .route({
      operationId: 'getWebsiteCheckHistory',
      method: 'get',
      path: '/api/websites/{id}/check-history',
      tags,
      summary: 'Stored check results, newest first',
      description:
        'One item per check and location. from defaults to 24 hours before to, to to now; both are inclusive. ' +
        'invalidDateRange when from or to is not an ISO 8601 date, or from is after to. An unknown location matches ' +
        'nothing. Timings, message and evidence are kept for every non-up result and a sample of up results ' +
        '(RESULTS_DETAIL_SAMPLE_MINUTES); results are kept RESULTS_RETENTION_DAYS days.',
      params: IdParams,
      query: z
        .object({ ...PageQuery, from: DateParam.optional(), to: DateParam.optional(), location: z.string().min(1).max(64).optional() })
        .strict(),
      response: pagedSchema(CheckResultSchema, 'CheckResultPage'),
      errors: ['invalidDateRange', 'websiteNotFound'],
      handler: async ({ actor, params, query }) => {
        const { items, total } = await use.getCheckHistory.execute(actor, { ...query, websiteId: params.id });
        return paged(items.map(presentCheckResult), total, query);
      },
    })
    .route({
      operationId: 'getWebsiteUptimeStats',
      method: 'get',
      path: '/api/websites/{id}/uptime-stats',
      tags,
      summary: 'Uptime and response-time percentiles',
      description:
        'period 24h (default), 7d or 30d ending now, or a from/to range (which then wins over period). Time is ' +
        'weighted: a result stands until the next one of its location, at most the check interval plus a grace. Time no ' +
        'result stands for (the checker was not running, the monitor was paused) is unknown and never counts as up or down. ' +
        "Every share has one denominator, the window: the expected location-time (the counted span, from the monitor's " +
        'first result at the earliest (monitoredSince) to now at the latest, times its locations). uptimePercent = (up + degraded) / window, ' +
        'downtimePercent = down / window, unknownPercent = unknown / window, so uptimePercent + downtimePercent + ' +
        'unknownPercent = 100 exactly; degradedPercent = degraded / window is the part of uptimePercent the target answered ' +
        'degraded. uptimeOfKnownPercent = (up + degraded) / (up + degraded + down) is uptime of the observed time only ' +
        '(null when nothing was observed). Two decimals, apportioned by largest remainder so that the parts still add up to ' +
        '100.00; the shares are null only for an empty window (a range before the monitor existed). Percentiles ' +
        'come from response-time histograms (down results excluded), accurate to a bucket (at most ~25% wide).',
      params: IdParams,
      query: z.object({ period: z.enum(PERIODS).optional(), from: DateParam.optional(), to: DateParam.optional() }).strict(),
      response: UptimeStatsSchema,
      errors: ['invalidDateRange', 'websiteNotFound'],
      handler: async ({ actor, params, query }) =>
        presentUptimeStats(await use.getUptimeStats.execute(actor, { ...query, websiteId: params.id })),
    }).router;
});
