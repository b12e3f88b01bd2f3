import { channelsToNotify } from '../../domain/notifications/channel-routing';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import { organizationScope } from '../../domain/shared/tenant-scope';
import { channelEventOf, OUTBOX_EVENT_KINDS } from '../../domain/notifications/delivery-schedule';
import type { Clock } from '../shared/clock';
import type { DeliveryLedger, EventRoute, NotificationChannelRepository } from './ports';

/**
 * Turns the outbox's events into deliveries: each event goes to the channels configured now, one
 * delivery per channel, written with the event's "routed" mark in one statement. Two workers
 * routing one event race on that mark: one writes the deliveries, the other writes nothing.
 * Answers how many events it routed. The candidates are read once per customer and round (the
 * organization's channels and all of the customer's, overrides included, which routing narrows to
 * the event's monitor): a storm of one customer's monitors costs one read, not one per event.
 */
export class RouteOutboxEvents {
  constructor(private readonly ledger: DeliveryLedger, private readonly channels: NotificationChannelRepository, private readonly clock: Clock) {}

  async execute(limit = 100): Promise<number> {
    const events = await this.ledger.unroutedEvents(OUTBOX_EVENT_KINDS, limit);
    const routes: EventRoute[] = [];
    const customers = new Map<string, Promise<NotificationChannel[]>>();
    const candidatesOf = (event: (typeof events)[number]) => {
      if (event.customerId === null) return this.channels.forEvent(event.organizationId, null, event.monitorId);
      const key = `${event.organizationId}:${event.customerId}`;
      let candidates = customers.get(key);
      if (!candidates) {
        const scope = organizationScope(event.organizationId);
        candidates = Promise.all([this.channels.list(scope, { organizationOnly: true }), this.channels.list(scope, { customerId: event.customerId })])
          .then(([organization, customer]) => [...organization, ...customer]);
        customers.set(key, candidates);
      }
      return candidates;
    };
    for (const event of events) {
      const kind = channelEventOf(event.kind);
      if (kind === null) continue;
      const candidates = await candidatesOf(event);
      const targets = channelsToNotify({ kind, organizationId: event.organizationId, customerId: event.customerId, monitorId: event.monitorId }, candidates);
      const message = {
        event: kind, occurredAt: event.occurredAt, summary: event.summary, incidentId: event.incidentId,
        monitorId: event.monitorId, customerId: event.customerId, data: event.data,
      };
      routes.push({ event, channels: targets, message });
    }
    return this.ledger.route(routes, this.clock.now());
  }
}
