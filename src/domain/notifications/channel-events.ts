/**
 * The events a notification channel can receive. A channel lists the ones it wants (`events`); a
 * channel created without a list stores every kind known then. A stored list is kept as chosen, so
 * a kind added in a later release reaches a channel only once its list names it.
 */
export const CHANNEL_EVENTS = [
  'incident.opened',
  'incident.acknowledged',
  'incident.resolved',
  'incident.reminder',
  'certificate.expiring',
  'certificate.expired',
  'domain.expiring',
  'domain.expired',
  'ip.listed',
  'ip.clean',
  'maintenance.started',
  'maintenance.ended',
  'alert.manual',
  'slo.burning',
  'slo.recovered',
] as const;

export type ChannelEvent = (typeof CHANNEL_EVENTS)[number];

export const isChannelEvent = (value: string): value is ChannelEvent => (CHANNEL_EVENTS as readonly string[]).includes(value);

/**
 * A channel's test message (the test button): sent to that one channel whatever its list says, so
 * it is no kind a channel subscribes to.
 */
export const TEST_EVENT = 'test';

/**
 * A storm's digest: the held incident transitions of one customer's window, in one message. A
 * channel receives the digest of a kind it lists (`data.digestOf`), so it is no kind of its own.
 */
export const DIGEST_EVENT = 'incident.digest';

/**
 * A channel whose deliveries keep failing, announced once per failing streak to the organization's
 * default channel whatever that channel lists: it is about the notification system itself.
 */
export const CHANNEL_FAILING_EVENT = 'channel.failing';

/** What a delivery can carry: a channel event, a test, a digest, or a failing channel's announcement. */
export type NotificationEvent = ChannelEvent | typeof TEST_EVENT | typeof DIGEST_EVENT | typeof CHANNEL_FAILING_EVENT;
