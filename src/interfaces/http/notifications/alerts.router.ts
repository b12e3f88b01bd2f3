import { SEND_ALERT_LIMIT, SendManualAlert } from '../../../application/notifications/send-manual-alert';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { SendAlertBody, SentAlertSchema } from './schemas';
import { presentQueuedDelivery } from './presenters';

const tags = ['Notification channels'] as const;

/** Alerts sent by hand, through the same delivery ledger as the ones incidents raise. */
export const alertsRouter = defineRouter({ sendManualAlert: SendManualAlert }, (deps, use) => {
  return new ApiRouter(deps).route({
    operationId: 'sendAlert',
    method: 'post',
    path: '/api/notifications/send-alert',
    tags,
    summary: 'Send an alert by hand',
    description:
      'Queues an ad-hoc alert (event `alert.manual`: the title as summary, then message and severity) through the ' +
      'delivery ledger, one delivery per channel, signed, retried and recorded like any alert. To the channels named in ' +
      'channelIds (whatever events they list; a disabled one fails in the ledger), or else to every enabled channel ' +
      "listing alert.manual: the organization's, plus the customer's when customerId is given (422 noChannelsToNotify " +
      'when there is none). With customerId, a named channel of another customer answers 400 invalidRequestBody ' +
      '(data.field /channelIds, data.reason otherCustomer). Organization-wide editors and admins only: customer-scoped ' +
      `callers get 403 customerScopedTokenForbidden. At most ${SEND_ALERT_LIMIT.limit} alerts per organization per minute ` +
      '(429 rateLimited with data.retryAfter in seconds).',
    body: SendAlertBody,
    status: 202,
    response: SentAlertSchema,
    errors: [
      'customerScopedTokenForbidden',
      'roleForbidden',
      'customerNotFound',
      'channelIdRequired',
      'invalidChannelId',
      'channelNotFound',
      'invalidRequestBody',
      'noChannelsToNotify',
      'rateLimited',
    ],
    handler: async ({ actor, body }) => {
      const { deliveries } = await use.sendManualAlert.execute(actor, body);
      return { event: 'alert.manual' as const, deliveries: deliveries.map((d) => presentQueuedDelivery(d.id, d.channel, 'alert.manual')) };
    },
  }).router;
});
