import { CLOCK, type Clock } from '../../application/shared/clock';
import { ID_GENERATOR, type IdGenerator } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../application/shared/transaction';
import type { TargetPolicy } from '../../application/shared/target-policy';
import { SECRET_TOKENS, type SecretTokens } from '../../application/identity/ports';
import { CREDENTIAL_CIPHER, type CredentialCipher } from '../../application/monitoring/ports';
import {
  CHANNEL_OWNERS,
  NOTIFICATION_CHANNEL_REPOSITORY,
  NOTIFICATION_TARGET_POLICY,
  ORGANIZATION_SMTP_STORE,
  SMTP_VERIFIER,
  WEBHOOK_SIGNER,
  type ChannelOwners,
  type NotificationChannelRepository,
  type OrganizationSmtpStore,
  type SmtpVerifier,
} from '../../application/notifications/ports';
import { WebhookSecrets } from '../../application/notifications/webhook-secrets';
import { CreateNotificationChannel } from '../../application/notifications/create-notification-channel';
import { ListNotificationChannels } from '../../application/notifications/list-notification-channels';
import { GetNotificationChannel } from '../../application/notifications/get-notification-channel';
import { UpdateNotificationChannel } from '../../application/notifications/update-notification-channel';
import { DeleteNotificationChannel } from '../../application/notifications/delete-notification-channel';
import { RouteChannelEvent } from '../../application/notifications/route-channel-event';
import { UpdateOrganizationSmtp } from '../../application/notifications/update-organization-smtp';
import { GetOrganizationSmtp } from '../../application/notifications/get-organization-smtp';
import { RemoveOrganizationSmtp } from '../../application/notifications/remove-organization-smtp';
import { SqlNotificationChannelRepository } from '../../infrastructure/notifications/sql-notification-channel.repository';
import { SqlChannelOwners } from '../../infrastructure/notifications/sql-channel-owners';
import { SqlOrganizationSmtpStore } from '../../infrastructure/notifications/sql-organization-smtp.store';
import { NodemailerSmtpVerifier } from '../../infrastructure/notifications/nodemailer-smtp-verifier';
import { HmacWebhookSigner } from '../../infrastructure/notifications/hmac-webhook-signer';
import { ResolvingTargetPolicy } from '../../infrastructure/network/resolving-target-policy';
import { CachingHostResolver } from '../../infrastructure/network/caching-host-resolver';
import { NodeDnsResolver } from '../../infrastructure/network/node-dns-resolver';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL } from '../tokens';
import { bindings, type Ctx } from './bindings';
import { notificationChannelsRouter } from '../../interfaces/http/notifications/notification-channels.router';
import { organizationSmtpRouter } from '../../interfaces/http/notifications/organization-smtp.router';
import { notificationDeliveriesRouter } from '../../interfaces/http/notifications/notification-deliveries.router';
import { alertsRouter } from '../../interfaces/http/notifications/alerts.router';
import type { ContextModule } from './context-module';
import { bindNotificationDelivery } from './notification-delivery.bindings';

import { notificationConnections, notificationWorker } from './notification-worker';

/**
 * Notifications: channels (organization, customer, monitor overrides), their routing, the organization's SMTP server,
 * and the delivery ledger with its senders (webhook and chat over HTTP, e-mail over SMTP).
 */
export const notificationsModule = bindings(({ bind, single }) => {
  single(NOTIFICATION_CHANNEL_REPOSITORY, (c) => new SqlNotificationChannelRepository(c.get(POOL_SQL)));
  single(CHANNEL_OWNERS, (c) => new SqlChannelOwners(c.get(POOL_SQL)));
  single(ORGANIZATION_SMTP_STORE, (c) => new SqlOrganizationSmtpStore(c.get(POOL_SQL)));
  // The checks' rule (CHECK_PRIVATE_ALLOWLIST, DNS_SERVERS) with a resolver of its own that keeps answers for their TTL:
  // a storm sends many messages to few receivers. Checks keep resolving every time (a check measures and sees DNS).
  single(NOTIFICATION_TARGET_POLICY, (c) => {
    const { dnsServers, checkPrivateAllowlist, notificationConnections } = c.get<AppConfig>(CONFIG);
    return new ResolvingTargetPolicy(
      new CachingHostResolver(new NodeDnsResolver(dnsServers), { maxEntries: notificationConnections.dnsCacheSize }),
      checkPrivateAllowlist,
    );
  });
  single(WEBHOOK_SIGNER, () => new HmacWebhookSigner());
  single(SMTP_VERIFIER, (c) => new NodemailerSmtpVerifier(new URL(c.get<AppConfig>(CONFIG).publicBaseUrl).hostname));

  const channels = (c: Ctx) => c.get<NotificationChannelRepository>(NOTIFICATION_CHANNEL_REPOSITORY);
  const owners = (c: Ctx) => c.get<ChannelOwners>(CHANNEL_OWNERS);
  const smtp = (c: Ctx) => c.get<OrganizationSmtpStore>(ORGANIZATION_SMTP_STORE);
  const tx = (c: Ctx) => c.get<TransactionRunner>(TRANSACTION_RUNNER);
  const clock = (c: Ctx) => c.get<Clock>(CLOCK);
  const cipher = (c: Ctx) => c.get<CredentialCipher>(CREDENTIAL_CIPHER);

  single(WebhookSecrets, (c) => new WebhookSecrets(c.get<SecretTokens>(SECRET_TOKENS), cipher(c)));
  single(
    CreateNotificationChannel,
    (c) =>
      new CreateNotificationChannel(
        channels(c),
        owners(c),
        c.get(WebhookSecrets),
        tx(c),
        c.get<IdGenerator>(ID_GENERATOR),
        clock(c),
        c.get<TargetPolicy>(NOTIFICATION_TARGET_POLICY),
      ),
  );
  single(ListNotificationChannels, (c) => new ListNotificationChannels(channels(c), owners(c)));
  single(GetNotificationChannel, (c) => new GetNotificationChannel(channels(c)));
  single(
    UpdateNotificationChannel,
    (c) =>
      new UpdateNotificationChannel(
        channels(c),
        owners(c),
        c.get(WebhookSecrets),
        tx(c),
        clock(c),
        c.get<TargetPolicy>(NOTIFICATION_TARGET_POLICY),
      ),
  );
  single(DeleteNotificationChannel, (c) => new DeleteNotificationChannel(channels(c), tx(c)));
  single(RouteChannelEvent, (c) => new RouteChannelEvent(channels(c)));

  single(
    UpdateOrganizationSmtp,
    (c) =>
      new UpdateOrganizationSmtp(
        smtp(c),
        c.get<TargetPolicy>(NOTIFICATION_TARGET_POLICY),
        c.get<SmtpVerifier>(SMTP_VERIFIER),
        cipher(c),
        clock(c),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(GetOrganizationSmtp, (c) => new GetOrganizationSmtp(smtp(c)));
  single(RemoveOrganizationSmtp, (c) => new RemoveOrganizationSmtp(smtp(c), c.get(TRANSACTION_RUNNER)));

  bindNotificationDelivery({ bind, single });
});

export const notificationsContext: ContextModule = {
  name: 'notifications',
  bindings: notificationsModule,
  routers: [notificationChannelsRouter, organizationSmtpRouter, notificationDeliveriesRouter, alertsRouter],
  workers: [notificationWorker],
  closers: [notificationConnections],
};
