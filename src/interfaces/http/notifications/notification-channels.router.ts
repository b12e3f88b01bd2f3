import { z } from 'zod';
import { CreateNotificationChannel } from '../../../application/notifications/create-notification-channel';
import { ListNotificationChannels } from '../../../application/notifications/list-notification-channels';
import { GetNotificationChannel } from '../../../application/notifications/get-notification-channel';
import { UpdateNotificationChannel } from '../../../application/notifications/update-notification-channel';
import { DeleteNotificationChannel } from '../../../application/notifications/delete-notification-channel';
import { CHANNEL_TEST_LIMIT, SendTestNotification } from '../../../application/notifications/send-test-notification';
import { TEST_EVENT } from '../../../domain/notifications/channel-events';
import { NOTIFIERS } from '../../../domain/notifications/notifiers';
import type { NotifierDescriptor } from '../../../domain/notifications/notifiers/notifier';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import {
  ChannelIdParams,
  ChannelListQuery,
  ChannelSchema,
  ChannelWithSecretSchema,
  CreateChannelBody,
  TestDeliverySchema,
  UpdateChannelBody,
} from './schemas';
import { presentChannel, presentChannelWithSecret, presentQueuedDelivery } from './presenters';
import { PageQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['Notification channels'] as const;
/** Every type with what its descriptor says of it: `webhook (JSON POST signed …), email (recipients), …`. */
const TYPES_IN_WORDS = (NOTIFIERS as readonly NotifierDescriptor[]).map((n) => (n.about ? `${n.type} (${n.about})` : n.type)).join(', ');
const SCOPE_NOTE = "Customer-scoped callers see and manage their customer's channels only; any other answers 404.";
const URL_RULE =
  'A config URL that is unparseable, not http(s), userinfo-bearing, localhost, a reserved name ' +
  '(.local, .internal, .home.arpa...), a single-label host or an IP literal outside public space (unless the operator ' +
  'allowlisted its range with CHECK_PRIVATE_ALLOWLIST) answers 400 invalidRequestBody (data.field, data.reason, data.host; ' +
  'the message says how to fix it); messagePrefix is message content and exempt. Names are judged again at delivery, ' +
  'resolved through the target policy, with the same allowlist.';
const RECIPIENT_RULE =
  'An enabled channel of the same type and scope that already reaches one of the recipients ' +
  '(URL, address, number, ntfy topic) answers 409 notificationChannelRecipientExists with data.channelId.';

/** Where alerts go: channels of the organization, of a customer, and monitor overrides of those. */
export const notificationChannelsRouter = defineRouter(
  {
    listNotificationChannels: ListNotificationChannels,
    createNotificationChannel: CreateNotificationChannel,
    getNotificationChannel: GetNotificationChannel,
    updateNotificationChannel: UpdateNotificationChannel,
    deleteNotificationChannel: DeleteNotificationChannel,
    sendTestNotification: SendTestNotification,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listNotificationChannels',
        method: 'get',
        path: '/api/notification-channels',
        tags,
        summary: 'List notification channels',
        description:
          `By id. Filters: customerId (that customer's channels and its monitors' overrides), websiteId ` +
          `(that monitor's overrides). ${SCOPE_NOTE}`,
        query: ChannelListQuery.extend(PageQuery),
        response: pagedSchema(ChannelSchema, 'NotificationChannelPage'),
        errors: ['customerNotFound', 'monitorNotFound'],
        handler: async ({ actor, query: { page, perPage, ...query } }) =>
          pageOf((await use.listNotificationChannels.execute(actor, query)).map(presentChannel), { page, perPage }),
      })
      .route({
        operationId: 'createNotificationChannel',
        method: 'post',
        path: '/api/notification-channels',
        tags,
        summary: 'Create a notification channel',
        description:
          `Types: ${TYPES_IN_WORDS}. Scope: the ` +
          'organization (no customerId), a customer (customerId), or a monitor override (websiteId + sourceChannelId: ' +
          "replaces that organization or customer channel for the monitor; type and config default to the source's; " +
          'a disabled override mutes the source for the monitor). events defaults to all. ' +
          `${URL_RULE} ${RECIPIENT_RULE} ${SCOPE_NOTE}`,
        body: CreateChannelBody,
        status: 201,
        response: ChannelWithSecretSchema,
        errors: [
          'invalidRequestBody',
          'webhookHostHeaderForbidden',
          'notificationChannelRecipientExists',
          'customerNotFound',
          'monitorNotFound',
          'sourceChannelIdRequired',
          'invalidSourceChannelId',
          'sourceChannelNotFound',
          'websiteChannelOverrideExists',
          'channelKeyTaken',
          'roleForbidden',
        ],
        handler: async ({ actor, body }) => presentChannelWithSecret(await use.createNotificationChannel.execute(actor, body)),
      })
      .route({
        operationId: 'getNotificationChannel',
        method: 'get',
        path: '/api/notification-channels/{id}',
        tags,
        summary: 'Get a notification channel',
        description: `Never shows the webhook signing secret. ${SCOPE_NOTE}`,
        params: ChannelIdParams,
        response: ChannelSchema,
        errors: ['channelIdRequired', 'invalidChannelId', 'channelNotFound'],
        handler: async ({ actor, params }) => presentChannel(await use.getNotificationChannel.execute(actor, params)),
      })
      .route({
        operationId: 'updateNotificationChannel',
        method: 'patch',
        path: '/api/notification-channels/{id}',
        tags,
        summary: 'Change a notification channel',
        description:
          'Name, type and config, events, enabled; the scope is fixed. A type change needs a config ' +
          '(configRequiredForTypeChange); a channel that becomes a webhook gets a new signingSecret, answered once. ' +
          `${URL_RULE} ${RECIPIENT_RULE} ${SCOPE_NOTE}`,
        params: ChannelIdParams,
        body: UpdateChannelBody,
        response: ChannelWithSecretSchema,
        errors: [
          'channelIdRequired',
          'invalidChannelId',
          'channelNotFound',
          'configRequiredForTypeChange',
          'invalidRequestBody',
          'webhookHostHeaderForbidden',
          'notificationChannelRecipientExists',
          'channelKeyTaken',
          'roleForbidden',
          'conflict',
        ],
        handler: async ({ actor, params, body }) =>
          presentChannelWithSecret(await use.updateNotificationChannel.execute(actor, { id: params.id, change: body })),
      })
      .route({
        operationId: 'deleteNotificationChannel',
        method: 'delete',
        path: '/api/notification-channels/{id}',
        tags,
        summary: 'Delete a notification channel',
        description: `Deletes the channel and the monitor overrides made of it. ${SCOPE_NOTE}`,
        params: ChannelIdParams,
        response: z.object({ success: z.literal(true), id: z.number().int(), publicId: z.uuid(), deletedOverrides: z.number().int() }),
        errors: ['channelIdRequired', 'invalidChannelId', 'channelNotFound', 'roleForbidden'],
        handler: async ({ actor, params }) => {
          const { channel, deletedOverrides } = await use.deleteNotificationChannel.execute(actor, params);
          return { success: true as const, id: channel.id, publicId: channel.publicId, deletedOverrides };
        },
      })
      .route({
        operationId: 'testNotificationChannel',
        method: 'post',
        path: '/api/notification-channels/{id}/test',
        tags,
        summary: 'Send a test notification to a channel',
        description:
          'Queues a sample message (event `test`, its summary saying no incident happened, `data.test: true`) for this ' +
          'channel alone, through the delivery ledger like any alert: signed, retried, every attempt recorded. The first ' +
          'attempt is made at once and answered with the delivery: what the receiver answered (status code, the start of its ' +
          "answer) or the error, and the status it left (delivered, retry, failed); retries are the worker's, and GET " +
          '/api/notification-deliveries?channelId= shows them (202 with attempt null if a worker took it first). A disabled channel is tried too, so it can be ' +
          `checked before it is switched on. At most ${CHANNEL_TEST_LIMIT.limit} per channel per minute (429 rateLimited with ` +
          `data.retryAfter in seconds). Editors and admins only. ${SCOPE_NOTE}`,
        params: ChannelIdParams,
        status: 200,
        response: TestDeliverySchema,
        errors: ['channelIdRequired', 'invalidChannelId', 'channelNotFound', 'roleForbidden', 'rateLimited'],
        handler: async ({ actor, params, res }) => {
          const test = use.sendTestNotification;
          const { deliveryId, channel } = await test.execute(actor, params);
          const attempt = await test.firstAttempt(deliveryId);
          if (!attempt) res.status(202);
          return {
            ...presentQueuedDelivery(deliveryId, channel, TEST_EVENT),
            status: attempt ? attempt.outcome : 'pending',
            attempt: attempt && {
              at: attempt.at.toISOString(),
              statusCode: attempt.statusCode,
              responseExcerpt: attempt.responseExcerpt,
              error: attempt.error,
              latencyMs: Math.round(attempt.latencyMs),
            },
          };
        },
      }).router;
  },
);
