import { organizationScope } from '../../domain/shared/tenant-scope';
import type { ChannelEvent } from '../../domain/notifications/channel-events';
import { channelsToNotify } from '../../domain/notifications/channel-routing';
import { channelEventOf, OUTBOX_EVENT_KINDS } from '../../domain/notifications/delivery-schedule';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { NotificationMessage } from '../../domain/notifications/notification-message';
import { digestMessage, groupsInStorms, type StormPolicy } from '../../domain/notifications/storm-digest';
import type { Clock } from '../shared/clock';
import type { FallBackFromFailingChannels } from './fall-back-from-failing-channels';
import type { DeliveryLedger, HeldWindow, NotificationChannelRepository, OutboxEvent, StormLedger } from './ports';

const messageOf = (kind: ChannelEvent, event: OutboxEvent): Omit<NotificationMessage, 'id'> => ({
  event: kind, occurredAt: event.occurredAt, summary: event.summary, incidentId: event.incidentId,
  monitorId: event.monitorId, customerId: event.customerId, data: event.data,
});

/**
 * Turns the outbox's events into deliveries: each event goes to the channels configured now, one
 * delivery per channel, written with the event's "routed" mark in one statement. Two workers
 * routing one event race on that mark: one writes the deliveries, the other writes nothing.
 *
 * Storms stay bounded: an incident transition of a customer counts in that customer's window for
 * its kind (see StormPolicy); past the window's first few it is held, and once the window ended
 * its held events go out as one digest per channel, each channel listing the incidents it would
 * have received one by one (monitor overrides included). A channel listing `incident.opened`
 * therefore gets the digest of openings, whatever else it lists. Then failed deliveries go to the
 * fallback channel (FallBackFromFailingChannels). Answers how many events it routed, windows it
 * digested and fallbacks it wrote.
 */
export class RouteOutboxEvents {
  constructor(
    private readonly ledger: DeliveryLedger, private readonly channels: NotificationChannelRepository, private readonly clock: Clock,
    private readonly storms: StormLedger, private readonly policy: StormPolicy, private readonly fallbacks: FallBackFromFailingChannels,
  ) {}

  async execute(limit = 100): Promise<number> {
    const events = await this.ledger.unroutedEvents(OUTBOX_EVENT_KINDS, limit);
    let routed = 0;
    for (const event of events) {
      const kind = channelEventOf(event.kind);
      if (kind === null) continue;
      const candidates = await this.channels.forEvent(event.organizationId, event.customerId, event.monitorId);
      const targets = channelsToNotify({ kind, organizationId: event.organizationId, customerId: event.customerId, monitorId: event.monitorId }, candidates);
      const now = this.clock.now();
      const done = groupsInStorms(kind, event.customerId, this.policy)
        ? (await this.storms.routeGrouped(event, kind, targets, messageOf(kind, event), now, this.policy)) !== null
        : await this.ledger.route(event, targets, messageOf(kind, event), now);
      if (done) routed += 1;
    }
    return routed + (await this.digestEndedWindows(limit)) + (await this.fallbacks.execute(limit));
  }

  private async digestEndedWindows(limit: number): Promise<number> {
    const windows = await this.storms.endedWindows(this.clock.now(), limit);
    let digested = 0;
    for (const window of windows) {
      // Every channel of the organization, once per window: routing picks per event (its monitor's overrides) among them.
      const all = await this.channels.list(organizationScope(window.organizationId), {});
      if (await this.storms.digest(window, this.digestsOf(window, all), this.clock.now())) digested += 1;
    }
    return digested;
  }

  private digestsOf(window: HeldWindow, all: readonly NotificationChannel[]) {
    const kind = window.kind as ChannelEvent;
    const perChannel = new Map<number, { channel: NotificationChannel; events: OutboxEvent[] }>();
    for (const event of window.events) {
      const occurrence = { kind, organizationId: window.organizationId, customerId: window.customerId, monitorId: event.monitorId };
      for (const channel of channelsToNotify(occurrence, all)) {
        const entry = perChannel.get(channel.id) ?? { channel, events: [] };
        entry.events.push(event);
        perChannel.set(channel.id, entry);
      }
    }
    const startedAt = new Date(window.endedAt.getTime() - this.policy.windowMs);
    return [...perChannel.values()].map(({ channel, events }) => ({
      channel, message: digestMessage(kind, window.customerId, events, { startedAt, endedAt: window.endedAt }),
    }));
  }
}
