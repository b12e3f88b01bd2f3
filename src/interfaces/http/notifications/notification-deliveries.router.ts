import { z } from 'zod';
import { ListNotificationDeliveries } from '../../../application/notifications/list-notification-deliveries';
import type { DeliveryRecord } from '../../../application/notifications/ports';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { PageQuery, paged, pagedSchema } from '../shared/paging';

const tags = ['Notification channels'] as const;

const DeliveryListQuery = z
  .object({
    channelId: z.string().max(100).optional().meta({ description: 'Integer id or public id of a channel: only its deliveries' }),
    incidentId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'Only the deliveries of this incident, and the storm digests listing it' }),
    ...PageQuery,
  })
  .strict();

const AttemptSchema = z
  .object({
    attempt: z.number().int(),
    at: z.iso.datetime(),
    statusCode: z.number().int().nullable().meta({ description: 'HTTP status, or the SMTP reply code; null when no answer came' }),
    outcome: z.enum(['delivered', 'retry', 'failed']),
    responseExcerpt: z.string().nullable(),
    latencyMs: z.number().int(),
    error: z.string().nullable(),
  })
  .meta({ id: 'NotificationDeliveryAttempt' });

const DeliverySchema = z
  .object({
    id: z.uuid().meta({ description: 'Also the X-Webhook-Id a receiver sees on every try (the idempotency key)' }),
    channelId: z.uuid(),
    channelType: z.string(),
    event: z.string().meta({
      description:
        "A channel event (incident.opened, ...), test, alert.manual, channel.failing, or incident.digest: a customer's storm told once " +
        "(its payload's data.stage: started, update or over; the incidents it lists are found by ?incidentId=)",
    }),
    incidentId: z.string().nullable(),
    customerId: z.number().int().nullable(),
    websiteId: z.number().int().nullable(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.array(AttemptSchema),
    nextAttemptAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    deliveredAt: z.iso.datetime().nullable(),
    failedAt: z.iso.datetime().nullable(),
    lastError: z.string().nullable(),
    fallbackOf: z.uuid().nullable().meta({
      description: "On a delivery to the organization's default channel: the failed delivery (of another channel) it sends again",
    }),
    fallbackId: z
      .uuid()
      .nullable()
      .meta({ description: 'On a delivery that failed for good: its fallback to the default channel, once written' }),
  })
  .meta({ id: 'NotificationDelivery' });

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

function presentDelivery(d: DeliveryRecord) {
  return {
    id: d.id,
    channelId: d.channelId,
    channelType: d.channelType,
    event: d.event,
    incidentId: d.incidentId,
    customerId: d.customerId,
    websiteId: d.monitorId,
    status: d.status,
    attempts: d.attempts.map((a) => ({
      attempt: a.attempt,
      at: a.at.toISOString(),
      statusCode: a.statusCode,
      outcome: a.outcome,
      responseExcerpt: a.responseExcerpt,
      latencyMs: a.latencyMs,
      error: a.error,
    })),
    nextAttemptAt: iso(d.nextAttemptAt),
    createdAt: d.createdAt.toISOString(),
    deliveredAt: iso(d.deliveredAt),
    failedAt: iso(d.failedAt),
    lastError: d.lastError,
    fallbackOf: d.fallbackOf,
    fallbackId: d.fallbackId,
  };
}

/** The delivery ledger, read-only: every notification sent or being retried, with its attempts. */
export const notificationDeliveriesRouter = defineRouter({ listNotificationDeliveries: ListNotificationDeliveries }, (deps, use) => {
  return new ApiRouter(deps).route({
    operationId: 'listNotificationDeliveries',
    method: 'get',
    path: '/api/notification-deliveries',
    tags,
    summary: 'List notification deliveries',
    description:
      'Newest first: one delivery per event and channel, its status (pending, delivered, failed) and every ' +
      'attempt (time, status code, response excerpt, latency). Filters: channelId, incidentId. Customer-scoped ' +
      "callers (a customer's API token, a user bound to a customer) see the deliveries through their customer's own " +
      "channels only (the customer's channels and its monitors' overrides, tests of them included): deliveries through the organization's " +
      "channels (the agency's own notifications about the customer's incidents, and its default channel's fallbacks) are neither listed " +
      'nor counted in total, with incidentId too, and a fallbackId or fallbackOf naming such a delivery is null. ' +
      'A channel the caller does not see answers 404 channelNotFound.',
    query: DeliveryListQuery,
    response: pagedSchema(DeliverySchema, 'NotificationDeliveryPage'),
    errors: ['invalidChannelId', 'channelNotFound'],
    handler: async ({ actor, query }) => {
      const { items, total } = await use.listNotificationDeliveries.execute(actor, query);
      return paged(items.map(presentDelivery), total, query);
    },
  });
});
