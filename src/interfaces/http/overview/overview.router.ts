import { MONITOR_KINDS_IN_WORDS } from '../../../domain/monitoring/monitor-kind';
import { z } from 'zod';
import { GetUptimeBars, MAX_BAR_MONITORS } from '../../../application/overview/get-uptime-bars';
import { ListMonitorOverview, type OverviewItem } from '../../../application/overview/list-monitor-overview';
import { currentStateRecord } from '../../../application/monitoring/monitor-records';
import { BAR_SPANS, OVERVIEW_STATES, type BarBucket } from '../../../domain/overview/monitor-overview';
import { CurrentStateSchema } from '../monitoring/response.schemas';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { pagedSchema, pagedText } from '../shared/paging';

const tags = ['Overview'] as const;
const Ref = z.string().min(1).max(64);

const OverviewQuery = z
  .object({
    customerId: Ref.optional().meta({
      description: "Integer id or public id of a customer: only its monitors (customerNotFound when it isn't visible)",
    }),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    perPage: z.coerce.number().int().min(1).max(1000).default(500),
  })
  .strict();

export const OverviewItemSchema = z
  .object({
    id: z.number().int(),
    publicId: z.uuid(),
    kind: z.string().meta({ description: `${MONITOR_KINDS_IN_WORDS}: the path its record lives under` }),
    monitoringType: z.string(),
    name: z.string(),
    target: z.string().nullable().meta({ description: 'The URL or host it checks; null for a heartbeat' }),
    customerId: z.number().int(),
    customerPublicId: z.uuid(),
    customerName: z.string(),
    tags: z.array(z.object({ publicId: z.uuid(), name: z.string(), color: z.string() })),
    locations: z.array(z.string()),
    checkInterval: z.number().int().meta({ description: 'Minutes between checks' }),
    state: z.enum(OVERVIEW_STATES).meta({
      description:
        'What an overview shows, most urgent first: down (its incident is open), degraded (its newest result was degraded), ' +
        'unknown (see currentState.reason), maintenance (a running window covers it), paused, up',
    }),
    inMaintenance: z.boolean(),
    currentState: CurrentStateSchema,
    lastCheck: z
      .object({
        status: z.enum(['up', 'degraded', 'down']),
        checkedAt: z.iso.datetime(),
        responseTimeMs: z.number().int().nullable(),
      })
      .nullable()
      .meta({ description: 'Its newest result of the last 24 hours, from any location; null when there is none' }),
  })
  .meta({ id: 'MonitorOverviewItem' });

const BarsBody = z
  .object({
    monitorIds: z.array(Ref).min(1).max(MAX_BAR_MONITORS),
    span: z
      .enum(Object.keys(BAR_SPANS) as ['24h', '90d'])
      .default('24h')
      .meta({ description: '24h: 24 hourly buckets; 90d: 90 daily ones (UTC)' }),
  })
  .strict()
  .meta({ id: 'UptimeBarsRequest' });

const Share = z.number().min(0).max(1).nullable();
const BarSchema = z
  .object({
    monitorId: z.string().meta({ description: 'The id as asked for' }),
    buckets: z.array(
      z.object({ start: z.iso.datetime(), up: Share, degraded: Share, down: Share }).meta({
        id: 'UptimeBarBucket',
        description: 'Shares of the checked time in each status (summing to 1), oldest bucket first; null when nothing was checked',
      }),
    ),
  })
  .meta({ id: 'UptimeBar' });

/**
 * A monitor as the API lists it: the reader's listing (every field but these three, written by
 * PostgreSQL) with the state, inMaintenance and currentState the use case decided added, as text.
 */
const itemText = (item: OverviewItem): string =>
  `${item.listing.slice(0, -1)},"state":"${item.state}","inMaintenance":${item.inMaintenance},` +
  `"currentState":${JSON.stringify(currentStateRecord(item.current))}}`;

const presentBucket = (bucket: BarBucket) => ({
  start: bucket.start.toISOString(),
  up: bucket.up,
  degraded: bucket.degraded,
  down: bucket.down,
});

/** One call per page for a console's overview of every monitor, whatever its kind, and uptime bars for the rows it shows. */
export const overviewRouter = defineRouter({ listMonitorOverview: ListMonitorOverview, getUptimeBars: GetUptimeBars }, (deps, use) =>
  new ApiRouter(deps)
    .route({
      operationId: 'listMonitorOverview',
      method: 'get',
      path: '/api/monitor-overview',
      tags,
      summary: 'Every monitor of every kind, with what it is now',
      description:
        "The caller's monitors (a customer-scoped caller: its customer's) of all kinds in one list, in id order, each with its " +
        'overview state, current state, tags, locations and newest result: up to 1,000 per page, so a console holds 10,000 ' +
        'monitors in ten calls and filters, groups and sorts them itself.',
      query: OverviewQuery,
      response: pagedSchema(OverviewItemSchema, 'MonitorOverviewPage'),
      errors: ['customerNotFound'],
      handler: async ({ actor, query: { page, perPage, customerId }, res }) => {
        const { items, total } = await use.listMonitorOverview.execute(actor, { filter: { customerId }, page: { page, perPage } });
        res
          .status(200)
          .type('application/json')
          .send(pagedText(items.map(itemText), total, { page, perPage }));
      },
    })
    .route({
      operationId: 'getUptimeBars',
      method: 'post',
      path: '/api/monitor-overview/uptime-bars',
      tags,
      summary: 'Uptime bars of up to 200 monitors',
      description:
        'For each monitor (integer or public id) its last 24 hours in hourly buckets or its last 90 days in daily ones, ending ' +
        'with the bucket that holds now: the share of checked time up, degraded and down, from the hourly rollups and the ' +
        'raw results not rolled up yet. Monitors the caller cannot see are listed in notFound.',
      body: BarsBody,
      response: z.object({ bars: z.array(BarSchema), notFound: z.array(z.string()) }),
      handler: async ({ actor, body }) => {
        const { bars, notFound } = await use.getUptimeBars.execute(actor, body);
        return { bars: bars.map((bar) => ({ monitorId: bar.monitorId, buckets: bar.buckets.map(presentBucket) })), notFound };
      },
    }),
);
