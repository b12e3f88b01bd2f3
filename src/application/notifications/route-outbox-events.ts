import { organizationScope } from '../../domain/shared/tenant-scope';
import type { ChannelEvent } from '../../domain/notifications/channel-events';
import { channelsToNotify } from '../../domain/notifications/channel-routing';
import { channelEventOf, OUTBOX_EVENT_KINDS } from '../../domain/notifications/delivery-schedule';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { NotificationMessage } from '../../domain/notifications/notification-message';
import { digestMessage, groupsInStorms, type StormPolicy } from '../../domain/notifications/storm-digest';
import type { Clock } from '../shared/clock';
import type { FallBackFromFailingChannels } from './fall-back-from-failing-channels';
import type { DeliveryLedger, EventRoute, HeldWindow, NotificationChannelRepository, OutboxEvent, StormLedger } from './ports';

const messageOf = (kind: ChannelEvent, event: OutboxEvent): Omit<NotificationMessage, 'id'> => ({
  event: kind, occurredAt: event.occurredAt, summary: event.summary, incidentId: event.incidentId,
  monitorId: event.monitorId, customerId: event.customerId, data: event.data,
});

/**
 * Turns the outbox's events into deliveries: each event goes to the channels configured now, one
 * delivery per channel, written with the event's "routed" mark; the round's events that go out on
 * their own are written in one statement (one commit). Two workers routing one event race on that
 * mark: one writes the deliveries, the other writes nothing. The candidates are read once per
 * organization and round (its channels and all of the round's customers', overrides included, which
 * routing narrows to each event's customer and monitor).
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
    const byOrganization = new Map<number, NotificationChannel[]>();
    for (const organizationId of new Set(events.filter((e) => e.customerId !== null).map((e) => e.organizationId))) {
      const customers = new Set(events.filter((e) => e.organizationId === organizationId && e.customerId !== null).map((e) => e.customerId!));
      byOrganization.set(organizationId, await this.channels.forCustomers(organizationId, [...customers]));
    }
    const candidatesOf = async (event: OutboxEvent) => (event.customerId === null
      ? this.channels.forEvent(event.organizationId, null, event.monitorId)
      : byOrganization.get(event.organizationId)!);
    let routed = 0;
    const alone: EventRoute[] = [];
    for (const event of events) {
      const kind = channelEventOf(event.kind);
      if (kind === null) continue;
      const targets = channelsToNotify({ kind, organizationId: event.organizationId, customerId: event.customerId, monitorId: event.monitorId }, await candidatesOf(event));
      if (!groupsInStorms(kind, event.customerId, this.policy)) {
        alone.push({ event, channels: targets, message: messageOf(kind, event) });
        continue;
      }
      // In the outbox's order: the events before this one are written first.
      routed += await this.ledger.routeMany(alone.splice(0), this.clock.now());
      if ((await this.storms.routeGrouped(event, kind, targets, messageOf(kind, event), this.clock.now(), this.policy)) !== null) routed += 1;
    }
    routed += await this.ledger.routeMany(alone, this.clock.now());
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
