import { z } from 'zod';
import 'zod-openapi';
import { CHANNEL_TYPES } from '../../../domain/notifications/channel-config';
import { NOTIFIERS } from '../../../domain/notifications/notifiers';
import { CHANNEL_EVENTS } from '../../../domain/notifications/channel-events';
import { SMTP_SECURITY } from '../../../domain/notifications/organization-smtp';
import { ALERT_SEVERITIES } from '../../../domain/notifications/manual-notifications';
import { RESOURCE_KEY } from '../../../domain/shared/resource-key';
import { channelConfigInput, channelConfigOutput } from './channel-config-schema';

const Timestamp = z.iso.datetime();
const Ref = z.string().trim().min(1).max(64).meta({ description: 'Public id (uuid) or integer id' });
const RefInput = z.union([z.number().int().positive().max(2_147_483_647), Ref]);

const ChannelConfigInput = channelConfigInput(NOTIFIERS);
const ChannelConfig = channelConfigOutput(NOTIFIERS);

const Events = z.array(z.enum(CHANNEL_EVENTS)).min(1).max(CHANNEL_EVENTS.length).meta({
  description:
    "The events this channel receives; all of them when omitted at create. A customer's storm (more than NOTIFY_DIGEST_AFTER incidents opening within NOTIFY_DIGEST_WINDOW_SECONDS) is told as event incident.digest: data.stage started (one digest, once no new failure joined for NOTIFY_STORM_SETTLE_SECONDS or the window after its start ended), update (at most one per NOTIFY_STORM_FOLLOW_UP_SECONDS, new failures and recoveries; failures joining within NOTIFY_DIGEST_WINDOW_SECONDS after the digest are told in a first update as soon as they settle), over (all recovered, or NOTIFY_STORM_QUIET_SECONDS without a new failure); each channel gets the failures if it lists incident.opened and the recoveries and the end if it lists incident.resolved (data.incidents, each with its change); channel.failing goes to the organization's default channel whatever it lists",
});

const ChannelKey = z
  .string()
  .regex(RESOURCE_KEY)
  .nullable()
  .meta({
    description:
      "A stable key the client chooses (letters, digits and . _ : / -, at most 128), unique among the organization's channels " +
      '(channelKeyTaken); monitoring-as-code tools match their entries to channels by it. null: none',
  });

export const CreateChannelBody = z
  .object({
    key: ChannelKey.optional(),
    name: z.string().trim().min(1).max(200),
    type: z
      .enum(CHANNEL_TYPES)
      .optional()
      .meta({ description: "Required, except for a monitor override (then the source channel's type)" }),
    config: ChannelConfigInput.optional().meta({
      description: "Required, except for a monitor override of the source's type (then the source channel's config)",
    }),
    events: Events.optional(),
    enabled: z.boolean().optional(),
    isDefault: z.boolean().optional().meta({
      description:
        "The organization's default channel (organization channels only, one per organization; making one default unsets the previous): deliveries that fail for good on another channel are sent here again, with a channel.failing event when a channel starts failing",
    }),
    customerId: RefInput.optional().meta({
      description: "A customer's channel; omitted: the organization's (a customer-scoped caller's own customer)",
    }),
    websiteId: RefInput.optional().meta({ description: 'A monitor override: replaces sourceChannelId for this monitor' }),
    sourceChannelId: z
      .union([z.number(), z.string().max(64)])
      .nullable()
      .optional()
      .meta({ description: 'With websiteId: the organization or customer channel this override replaces for the monitor' }),
  })
  .strict()
  .meta({ id: 'CreateNotificationChannelBody' });

export const UpdateChannelBody = z
  .object({
    key: ChannelKey.optional(),
    name: z.string().trim().min(1).max(200).optional(),
    type: z.enum(CHANNEL_TYPES).optional().meta({ description: 'A new type needs a config (configRequiredForTypeChange)' }),
    config: ChannelConfigInput.optional().meta({ description: 'Replaces the whole config' }),
    events: Events.optional(),
    enabled: z.boolean().optional(),
    isDefault: z.boolean().optional().meta({
      description:
        "The organization's default channel (organization channels only, one per organization; making one default unsets the previous): deliveries that fail for good on another channel are sent here again, with a channel.failing event when a channel starts failing",
    }),
  })
  .strict()
  .meta({ id: 'UpdateNotificationChannelBody' });

export const ChannelListQuery = z
  .object({
    customerId: Ref.optional().meta({ description: "Only this customer's channels and its monitors' overrides" }),
    websiteId: Ref.optional().meta({ description: "Only this monitor's overrides" }),
  })
  .strict();

export const ChannelIdParams = z.object({
  id: z.string().max(100).meta({ description: 'Integer id or public id (uuid) of the channel' }),
});

const ChannelHealthSchema = z
  .object({
    status: z.enum(['healthy', 'degraded', 'failing']).meta({
      description:
        'Follows every attempt: degraded after one failed attempt (retries included), failing after ' +
        "NOTIFY_CHANNEL_FAILING_AFTER failed attempts in a row (default 3; messages then also go to the organization's default " +
        'channel, and channel.failing is announced there once), healthy again after one delivered',
    }),
    consecutiveFailures: z.number().int().meta({ description: "Attempts in a row that failed because of this channel's receiver" }),
    failingSince: Timestamp.nullable(),
    lastFailureAt: Timestamp.nullable(),
    lastFailureReason: z.string().nullable(),
    lastSuccessAt: Timestamp.nullable(),
  })
  .meta({ id: 'NotificationChannelHealth' });

const ChannelProblemSchema = z
  .object({
    code: z.enum(['channelFailing']),
    message: z.string(),
    since: Timestamp.nullable(),
  })
  .meta({ id: 'NotificationChannelProblem' });

export const ChannelSchema = z
  .object({
    id: z.number().int(),
    publicId: z.uuid(),
    organizationId: z.number().int(),
    customerId: z.number().int().nullable(),
    websiteId: z.number().int().nullable(),
    sourceChannelId: z.number().int().nullable(),
    key: z.string().nullable().meta({ description: 'The stable key the client gave the channel, null when none' }),
    scope: z.enum(['organization', 'customer', 'website']),
    name: z.string(),
    type: z.enum(CHANNEL_TYPES),
    config: ChannelConfig,
    events: z.array(z.enum(CHANNEL_EVENTS)),
    enabled: z.boolean(),
    isDefault: z.boolean().meta({ description: "The organization's default channel, where failed deliveries fall back" }),
    health: ChannelHealthSchema,
    problems: z.array(ChannelProblemSchema).meta({ description: 'What needs attention; empty when the channel is healthy' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'NotificationChannel' });

export const ChannelWithSecretSchema = ChannelSchema.extend({
  signingSecret: z
    .string()
    .optional()
    .meta({ description: 'webhook only, and only in this answer: the HMAC-SHA256 signing secret (whsec_...)' }),
}).meta({ id: 'NotificationChannelWithSecret' });

export const SmtpBody = z
  .object({
    host: z.string().trim().min(1).max(253).optional(),
    port: z.number().int().min(1).max(65_535).optional().meta({ description: 'Default by security: 465 (tls), 587 (starttls), 25 (none)' }),
    security: z.enum(SMTP_SECURITY).optional().meta({ description: 'tls (implicit), starttls (required upgrade, the default) or none' }),
    username: z.string().min(1).max(254).nullable().optional(),
    password: z.string().min(1).max(1000).nullable().optional().meta({ description: 'Write-only: stored encrypted, never answered' }),
    fromAddress: z.email().max(254).optional(),
  })
  .strict()
  .meta({ id: 'OrganizationSmtpBody' });

export const SmtpSchema = z
  .object({
    host: z.string(),
    port: z.number().int(),
    security: z.enum(SMTP_SECURITY),
    username: z.string().nullable(),
    passwordSet: z.boolean(),
    fromAddress: z.string(),
    verifiedAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'OrganizationSmtp' });

export const QueuedDeliverySchema = z
  .object({
    id: z.uuid().meta({
      description: 'The delivery: GET /api/notification-deliveries shows its attempts; a webhook receiver sees it as X-Webhook-Id',
    }),
    channelId: z.uuid().meta({ description: 'Public id of the channel' }),
    channelType: z.enum(CHANNEL_TYPES),
    event: z.string().meta({ description: 'test, or alert.manual' }),
    status: z.literal('pending').meta({ description: 'Queued in the delivery ledger; the worker sends it within moments' }),
  })
  .meta({ id: 'QueuedNotificationDelivery' });

export const TestDeliverySchema = QueuedDeliverySchema.extend({
  status: z.enum(['pending', 'delivered', 'retry', 'failed']).meta({ description: 'How the first attempt went (pending: not tried yet)' }),
  attempt: z
    .object({
      at: Timestamp,
      statusCode: z
        .number()
        .int()
        .nullable()
        .meta({ description: 'What the receiver answered (HTTP status, SMTP reply code); null: no answer' }),
      responseExcerpt: z.string().nullable().meta({ description: "The start of the receiver's answer" }),
      error: z.string().nullable().meta({ description: 'Why it failed, when it did (connection refused, timeout, refused target...)' }),
      latencyMs: z.number().int(),
    })
    .nullable()
    .meta({ description: 'The first attempt, when it was made within a few seconds; null otherwise' }),
}).meta({ id: 'TestNotificationDelivery' });

export const SendAlertBody = z
  .object({
    title: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .meta({ description: 'One line: the summary receivers see first (chat headline, e-mail subject)' }),
    message: z.string().max(4000).nullable().optional().meta({ description: "The alert's text, after the title" }),
    severity: z.enum(ALERT_SEVERITIES).optional().meta({ description: 'Heading and colour of chat messages and e-mails; default warning' }),
    customerId: RefInput.optional().meta({
      description: "The customer the alert is about: without channelIds, that customer's channels receive it too",
    }),
    channelIds: z.array(RefInput).min(1).max(50).optional().meta({
      description:
        "Integer ids or public ids of the channels to send to, whatever events they list; omitted: every enabled channel listing alert.manual (the organization's, and the customer's with customerId)",
    }),
  })
  .strict()
  .meta({ id: 'SendAlertBody' });

export const SentAlertSchema = z
  .object({
    event: z.literal('alert.manual'),
    deliveries: z.array(QueuedDeliverySchema).meta({ description: 'One per channel, in the order named (or routed)' }),
  })
  .meta({ id: 'SentAlert' });
