import type { ChannelEvent } from './channel-events';

/** What routing needs of a channel. */
export interface RoutableChannel {
  readonly id: number;
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly monitorId: number | null;
  readonly sourceChannelId: number | null;
  readonly enabled: boolean;
  readonly events: readonly ChannelEvent[];
}

/** Something that happened, and to whom: the customer and monitor are null when the event has none. */
export interface ChannelEventOccurrence {
  readonly kind: ChannelEvent;
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly monitorId: number | null;
}

/**
 * The channels to notify of an event: the organization's channels and those of the event's
 * customer; for an event of a monitor, that monitor's override of a channel takes the channel's
 * place (even a disabled override: that is how one monitor mutes a channel). Then disabled channels
 * and channels not listing the event drop out. Order: organization, then customer, by id.
 */
export function channelsToNotify<C extends RoutableChannel>(event: ChannelEventOccurrence, channels: readonly C[]): C[] {
  const mine = channels.filter((c) => c.organizationId === event.organizationId);
  const overrides = new Map<number, C>();
  if (event.monitorId !== null) {
    for (const c of mine) if (c.monitorId === event.monitorId && c.sourceChannelId !== null) overrides.set(c.sourceChannelId, c);
  }
  const bases = mine
    .filter((c) => c.monitorId === null && (c.customerId === null || c.customerId === event.customerId))
    .sort((a, b) => Number(a.customerId !== null) - Number(b.customerId !== null) || a.id - b.id);
  return bases.map((c) => overrides.get(c.id) ?? c).filter((c) => c.enabled && c.events.includes(event.kind));
}
