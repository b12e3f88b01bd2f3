import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { CLOCK, type Clock } from '../../application/shared/clock';
import type { TargetPolicy } from '../../application/shared/target-policy';
import { CREDENTIAL_CIPHER, type CredentialCipher } from '../../application/monitoring/ports';
import {
  CHANNEL_OWNERS,
  DELIVERY_LEDGER,
  DIRECT_DELIVERIES,
  DIRECT_DELIVERY_QUEUE,
  DIRECT_SENDERS,
  type DirectDeliveryQueue,
  type DirectSenders,
  NOTIFICATION_CHANNEL_REPOSITORY,
  NOTIFICATION_SENDERS,
  NOTIFICATION_TARGET_POLICY,
  ORGANIZATION_SMTP_STORE,
  SMS_QUOTA,
  WEBHOOK_SIGNER,
  type SmsQuota,
  type ChannelOwners,
  type DeliveryLedger,
  type NotificationChannelRepository,
  CHANNEL_HEALTH_LEDGER,
  STORM_LEDGER,
  type ChannelHealthLedger,
  type StormLedger,
  type NotificationSenders,
  type OrganizationSmtpStore,
  type WebhookSigner,
} from '../../application/notifications/ports';
import { WebhookSecrets } from '../../application/notifications/webhook-secrets';
import { RouteOutboxEvents } from '../../application/notifications/route-outbox-events';
import { SendSecurityNotices } from '../../application/notifications/send-security-notices';
import { SqlSecurityNoticeFeed } from '../../infrastructure/notifications/sql-security-notice-feed';
import { ListNotificationDeliveries } from '../../application/notifications/list-notification-deliveries';
import { SendTestNotification } from '../../application/notifications/send-test-notification';
import { SendManualAlert } from '../../application/notifications/send-manual-alert';
import { RATE_LIMITER, type RateLimiter } from '../../application/shared/rate-limiter';
import { DeliverDueNotifications, type DeliverySettings } from '../../application/notifications/deliver-due-notifications';
import { DeliverDueDirectMessages } from '../../application/notifications/deliver-due-direct-messages';
import { SendingNow } from '../../application/notifications/sending-now';
import { SqlDirectDeliveries } from '../../infrastructure/notifications/sql-direct-deliveries';
import { METRICS, type DeliveryMetrics } from '../../application/observability/ports';
import { WATCH_NOTIFIED_CTES } from '../../infrastructure/watches/watch-notified.sql';
import { SqlDeliveryLedger } from '../../infrastructure/notifications/sql-delivery-ledger';
import { SqlStormLedger } from '../../infrastructure/notifications/sql-storm-ledger';
import { SqlChannelHealthLedger } from '../../infrastructure/notifications/sql-channel-health-ledger';
import { FallBackFromFailingChannels } from '../../application/notifications/fall-back-from-failing-channels';
import { HttpNotificationSender } from '../../infrastructure/notifications/http-notification-sender';
import { NodemailerEmailSender, platformSmtp } from '../../infrastructure/notifications/nodemailer-email-sender';
import { SmsChannelSender } from '../../application/notifications/sms-channel-sender';
import { UnavailableSender } from '../../application/notifications/unavailable-sender';
import { VoiceChannelSender } from '../../application/notifications/voice-channel-sender';
import { PushSender } from '../../application/on-call/push-sender';

import { TwilioSmsProvider } from '../../infrastructure/notifications/twilio-sms-provider';
import { SqlSmsQuota } from '../../infrastructure/notifications/sql-sms-quota';
import { SharedTlsContext } from '../../infrastructure/protocols/shared/tls-context';
import { PinnedHttpPool } from '../../infrastructure/protocols/http/pinned-http-pool';
import { SmtpTransportPool } from '../../infrastructure/notifications/smtp-transport-pool';
import { TIMEOUT_MS as SMTP_TIMEOUT_MS } from '../../infrastructure/notifications/nodemailer-email-sender';
import type { SqlRunner } from '../../infrastructure/persistence/database';
import { checkUserAgent } from '../../domain/checks/user-agent';
import { PRODUCT } from '../product';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL, LOGGER, SQL } from '../tokens';
import { logRefused } from '../../infrastructure/event-catalogue/refused';
import type { Ctx, Single } from './bindings';
import type { ContainerModuleLoadOptions } from 'inversify';

/** The sender of the sms transport in a deployment without an SMS account. */
const NO_SMS = new UnavailableSender('No sender for sms is configured (no SMS account: SMS_ACCOUNT_SID, SMS_AUTH_TOKEN, SMS_FROM)');
/** The sender of the voice transport in a deployment without a Twilio account (calls go through the SMS provider's). */
const NO_VOICE = new UnavailableSender('No sender for voice is configured (no Twilio account: SMS_ACCOUNT_SID, SMS_AUTH_TOKEN, SMS_FROM)');

/**
 * How long one webhook or chat POST may take. A delivery's lease (NOTIFY_LEASE_MS) outlasts any send (an SMTP
 * exchange has three 15 s timeouts of its own), so a live worker never loses a row mid-send; a dead one's rows wait that long.
 */
const SEND_TIMEOUT_MS = 10_000;
/**
 * Deliveries a round claims: sent at once (at most NOTIFY_HTTP_SOCKETS_PER_ORIGIN at a time to one
 * receiver, the others waiting their turn: see turnMs), recorded as they finish. Larger rounds cost
 * less per delivery (fewer claims and settles); the wait for a turn is bounded apart from the answer's
 * SEND_TIMEOUT_MS, so a post late in a round is not timed out by its place in the queue.
 */
const DELIVERY_BATCH = 400;

/**
 * How long a post may wait for its turn at its receiver: half the lease, 10 s to 60 s, so a round's
 * sends end inside the lease it claimed them under. Past it the post is retried later as this
 * service's own delay, not a failure of the channel's (400 posts to one origin at 8 at a time wait
 * 10 s behind a receiver answering in 200 ms).
 */
const turnMs = (leaseMs: number): number => Math.min(60_000, Math.max(SEND_TIMEOUT_MS, leaseMs / 2));
const noMetrics: DeliveryMetrics = { notificationDelivery: () => undefined };

/**
 * The delivery half of notifications: the ledger, the senders with their kept connections and pooled
 * SMTP transports, direct messages, storms, channel health, and the deliverer's use cases.
 */
export function bindNotificationDelivery({ bind, single }: Pick<ContainerModuleLoadOptions, 'bind'> & { single: Single }): void {
  const channels = (c: Ctx) => c.get<NotificationChannelRepository>(NOTIFICATION_CHANNEL_REPOSITORY);
  const owners = (c: Ctx) => c.get<ChannelOwners>(CHANNEL_OWNERS);
  const clock = (c: Ctx) => c.get<Clock>(CLOCK);
  const cipher = (c: Ctx) => c.get<CredentialCipher>(CREDENTIAL_CIPHER);
  const smtp = (c: Ctx) => c.get<OrganizationSmtpStore>(ORGANIZATION_SMTP_STORE);
  const config = (c: Ctx) => c.get<AppConfig>(CONFIG);
  single(DELIVERY_LEDGER, (c) => new SqlDeliveryLedger(c.get<SqlRunner>(SQL), [WATCH_NOTIFIED_CTES], logRefused(c.get(LOGGER))));
  single(SMS_QUOTA, (c) => new SqlSmsQuota(c.get<SqlRunner>(SQL)));
  const userAgent = (c: Ctx) => checkUserAgent(PRODUCT.name, PRODUCT.version, config(c).publicBaseUrl);
  const policy = (c: Ctx) => c.get<TargetPolicy>(NOTIFICATION_TARGET_POLICY);
  const tls = new SharedTlsContext([]);
  // Kept-alive connections per receiver and pooled SMTP transports per server, closed on shutdown (closeNotificationConnections).
  single(PinnedHttpPool, (c) => {
    const { httpSocketsPerOrigin, httpOrigins } = config(c).notificationConnections;
    return new PinnedHttpPool(policy(c), tls, { socketsPerOrigin: httpSocketsPerOrigin, origins: httpOrigins });
  });
  single(SmtpTransportPool, (c) => {
    const { publicBaseUrl, notificationConnections } = config(c);
    return new SmtpTransportPool({
      servers: notificationConnections.smtpServers,
      connectionsPerServer: notificationConnections.smtpConnectionsPerServer,
      timeoutMs: SMTP_TIMEOUT_MS,
      heloName: new URL(publicBaseUrl).hostname,
    });
  });
  // The clock resolved once, not per message.
  single(HttpNotificationSender, (c) => {
    const now = clock(c);
    return new HttpNotificationSender(
      c.get(PinnedHttpPool),
      c.get<WebhookSigner>(WEBHOOK_SIGNER),
      userAgent(c),
      SEND_TIMEOUT_MS,
      () => now.now(),
      turnMs(config(c).notifications.leaseMs),
    );
  });
  single(NodemailerEmailSender, (c) => {
    const { notifications } = config(c);
    return new NodemailerEmailSender(
      policy(c),
      smtp(c),
      cipher(c),
      platformSmtp(notifications.smtpUrl, notifications.smtpFrom),
      c.get(SmtpTransportPool),
    );
  });
  // Without an SMS account SMS deliveries fail at once saying so (NO_SMS).
  const smsSender = (c: Ctx): SmsChannelSender | null => {
    const { sms } = config(c);
    return sms ? c.get(SmsChannelSender) : null;
  };
  // The deployment's Twilio account: its Messages API for SMS, its Calls API for voice.
  single(TwilioSmsProvider, (c) => {
    const { sms } = config(c);
    if (!sms) throw new Error('SMS_* settings are missing');
    const now = clock(c);
    return new TwilioSmsProvider(
      c.get(PinnedHttpPool),
      { baseUrl: sms.providerUrl, accountSid: sms.accountSid, authToken: sms.authToken, from: sms.from },
      userAgent(c),
      SEND_TIMEOUT_MS,
      () => now.now(),
    );
  });
  single(SmsChannelSender, (c) => new SmsChannelSender(c.get(TwilioSmsProvider), c.get<SmsQuota>(SMS_QUOTA), clock(c)));
  // Without one, calls fail at once saying so (NO_VOICE).
  single(VoiceChannelSender, (c) => new VoiceChannelSender(c.get(TwilioSmsProvider)));
  const voiceSender = (c: Ctx): VoiceChannelSender | null => (config(c).sms ? c.get(VoiceChannelSender) : null);
  // One sender per transport (each channel type's is its descriptor's `transport`).
  single(NOTIFICATION_SENDERS, (c): NotificationSenders => ({
    post: c.get(HttpNotificationSender),
    email: c.get(NodemailerEmailSender),
    sms: smsSender(c) ?? NO_SMS,
    voice: voiceSender(c) ?? NO_VOICE,
    'web-push': c.get(PushSender),
  }));
  single(DIRECT_SENDERS, (c): DirectSenders => ({
    webhook: c.get(HttpNotificationSender),
    email: c.get(NodemailerEmailSender),
    sms: smsSender(c) ?? NO_SMS,
    'web-push': c.get(PushSender),
  }));
  single(SqlDirectDeliveries, (c) => new SqlDirectDeliveries(c.get<SqlRunner>(SQL)));
  bind(DIRECT_DELIVERIES).toService(SqlDirectDeliveries);
  bind(DIRECT_DELIVERY_QUEUE).toService(SqlDirectDeliveries);
  single(STORM_LEDGER, (c) => new SqlStormLedger(c.get<SqlRunner>(SQL), logRefused(c.get(LOGGER))));
  single(CHANNEL_HEALTH_LEDGER, (c) => new SqlChannelHealthLedger(c.get<SqlRunner>(SQL)));
  single(
    FallBackFromFailingChannels,
    (c) =>
      new FallBackFromFailingChannels(
        c.get<ChannelHealthLedger>(CHANNEL_HEALTH_LEDGER),
        channels(c),
        { failingAfter: config(c).notifications.failingAfter },
        clock(c),
      ),
  );
  single(
    RouteOutboxEvents,
    (c) =>
      new RouteOutboxEvents(
        c.get<DeliveryLedger>(DELIVERY_LEDGER),
        channels(c),
        clock(c),
        c.get<StormLedger>(STORM_LEDGER),
        config(c).notifications.storm,
        c.get(FallBackFromFailingChannels),
        c.get(SendSecurityNotices),
      ),
  );
  single(
    SendSecurityNotices,
    (c) =>
      new SendSecurityNotices(
        new SqlSecurityNoticeFeed(c.get(POOL_SQL), logRefused(c.get(LOGGER))),
        c.get(DIRECT_DELIVERIES),
        c.get(TRANSACTION_RUNNER),
        clock(c),
      ),
  );
  single(ListNotificationDeliveries, (c) => new ListNotificationDeliveries(c.get<DeliveryLedger>(DELIVERY_LEDGER), channels(c)));
  single(
    SendTestNotification,
    (c) =>
      new SendTestNotification(
        c.get<DeliveryLedger>(DELIVERY_LEDGER),
        channels(c),
        c.get<RateLimiter>(RATE_LIMITER),
        clock(c),
        c.get(DeliverDueNotifications),
      ),
  );
  single(
    SendManualAlert,
    (c) => new SendManualAlert(c.get<DeliveryLedger>(DELIVERY_LEDGER), channels(c), owners(c), c.get<RateLimiter>(RATE_LIMITER), clock(c)),
  );
  const deliverySettings = (c: Ctx): DeliverySettings => {
    const { notifications } = config(c);
    return {
      baseMs: notifications.retryBaseMs,
      maxMs: notifications.retryMaxMs,
      maxAttempts: notifications.maxAttempts,
      leaseMs: notifications.leaseMs,
      batch: DELIVERY_BATCH,
      failingAfter: notifications.failingAfter,
    };
  };
  const metrics = (c: Ctx) => c.get(METRICS, { optional: true }) ?? noMetrics;
  // One for the process: its deliverers' claims leave alone what either of them is sending.
  single(SendingNow, () => new SendingNow());
  single(
    DeliverDueNotifications,
    (c) =>
      new DeliverDueNotifications(
        c.get<DeliveryLedger>(DELIVERY_LEDGER),
        channels(c),
        c.get<NotificationSenders>(NOTIFICATION_SENDERS),
        c.get(WebhookSecrets),
        deliverySettings(c),
        clock(c),
        metrics(c),
        Math.random,
        c.get(SendingNow),
      ),
  );
  single(
    DeliverDueDirectMessages,
    (c) =>
      new DeliverDueDirectMessages(
        c.get<DirectDeliveryQueue>(DIRECT_DELIVERY_QUEUE),
        c.get<DeliveryLedger>(DELIVERY_LEDGER),
        c.get<DirectSenders>(DIRECT_SENDERS),
        deliverySettings(c),
        clock(c),
        metrics(c),
        Math.random,
        c.get(SendingNow),
      ),
  );
}

/** Closes the deliverer's kept connections (HTTP receivers, SMTP servers): after the notification worker stopped. */
export function closeNotificationConnections(get: Ctx['get']): void {
  get(PinnedHttpPool).close();
  get(SmtpTransportPool).close();
}
