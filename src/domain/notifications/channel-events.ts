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
] as const;

export type ChannelEvent = (typeof CHANNEL_EVENTS)[number];

export const isChannelEvent = (value: string): value is ChannelEvent => (CHANNEL_EVENTS as readonly string[]).includes(value);
