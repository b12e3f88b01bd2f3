/**
 * The events a notification channel can receive. A channel lists the ones it wants (`events`); a
 * channel created without a list stores every kind known then. A stored list is kept as chosen, so
 * a kind added in a later release reaches a channel only once its list names it.
 */
export const CHANNEL_EVENTS = [
  'incident.opened', 'incident.acknowledged', 'incident.resolved', 'incident.reminder',
  'certificate.expiring', 'certificate.expired',
  'domain.expiring', 'domain.expired',
  'ip.listed', 'ip.clean',
  'maintenance.started', 'maintenance.ended',
  'alert.manual',
] as const;

export type ChannelEvent = (typeof CHANNEL_EVENTS)[number];

export const isChannelEvent = (value: string): value is ChannelEvent => (CHANNEL_EVENTS as readonly string[]).includes(value);

/**
 * A channel's test message (the test button): sent to that one channel whatever its list says, so
 * it is no kind a channel subscribes to.
 */
export const TEST_EVENT = 'test';

/** What a delivery can carry: a channel event, or a test. */
export type NotificationEvent = ChannelEvent | typeof TEST_EVENT;
