import type { NotificationChannel } from '../../../domain/notifications/notification-channel';
import { channelProblems, healthStatusOf } from '../../../domain/notifications/channel-health';
import type { OrganizationSmtp } from '../../../domain/notifications/organization-smtp';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/** A channel as the API shows it: never its sealed secret. */
export function presentChannel(c: NotificationChannel) {
  return {
    id: c.id,
    publicId: c.publicId,
    organizationId: c.organizationId,
    customerId: c.customerId,
    websiteId: c.monitorId,
    sourceChannelId: c.sourceChannelId,
    key: c.key,
    scope: c.monitorId !== null ? ('website' as const) : c.customerId !== null ? ('customer' as const) : ('organization' as const),
    name: c.name,
    type: c.type,
    config: { ...c.config },
    events: [...c.events],
    enabled: c.enabled,
    isDefault: c.isDefault,
    health: {
      status: healthStatusOf(c),
      consecutiveFailures: c.consecutiveFailures,
      failingSince: iso(c.failingSince),
      lastFailureAt: iso(c.lastFailureAt),
      lastFailureReason: c.lastFailureReason,
      lastSuccessAt: iso(c.lastSuccessAt),
    },
    problems: channelProblems(c).map((p) => ({ code: p.code, message: p.message, since: iso(p.since) })),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** The channel, with the signing secret when this answer is the one that shows it. */
export function presentChannelWithSecret({ channel, secret }: { channel: NotificationChannel; secret: string | null }) {
  return { ...presentChannel(channel), ...(secret === null ? {} : { signingSecret: secret }) };
}

/** The organization's SMTP settings: whether a password is set, never the password. */
export function presentSmtp(s: OrganizationSmtp) {
  return {
    host: s.host,
    port: s.port,
    security: s.security,
    username: s.username,
    passwordSet: s.passwordCiphertext !== null,
    fromAddress: s.fromAddress,
    verifiedAt: s.verifiedAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** A delivery just queued in the ledger (the test button, a manual alert). */
export function presentQueuedDelivery(id: string, channel: NotificationChannel, event: string) {
  return { id, channelId: channel.publicId, channelType: channel.type, event, status: 'pending' as const };
}
