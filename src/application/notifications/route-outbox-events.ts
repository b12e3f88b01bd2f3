import { channelsToNotify } from '../../domain/notifications/channel-routing';
import { channelEventOf, OUTBOX_EVENT_KINDS } from '../../domain/notifications/delivery-schedule';
import type { Clock } from '../shared/clock';
import type { DeliveryLedger, NotificationChannelRepository } from './ports';

/**
 * Turns the outbox's events into deliveries: each event goes to the channels configured now, one
 * delivery per channel, written with the event's "routed" mark in one statement. Two workers
 * routing one event race on that mark: one writes the deliveries, the other writes nothing.
 * Answers how many events it routed.
 */
export class RouteOutboxEvents {
  constructor(private readonly ledger: DeliveryLedger, private readonly channels: NotificationChannelRepository, private readonly clock: Clock) {}

  async execute(limit = 100): Promise<number> {
    const events = await this.ledger.unroutedEvents(OUTBOX_EVENT_KINDS, limit);
    let routed = 0;
    for (const event of events) {
      const kind = channelEventOf(event.kind);
      if (kind === null) continue;
      const candidates = await this.channels.forEvent(event.organizationId, event.customerId, event.monitorId);
      const targets = channelsToNotify({ kind, organizationId: event.organizationId, customerId: event.customerId, monitorId: event.monitorId }, candidates);
      const message = {
        event: kind, occurredAt: event.occurredAt, summary: event.summary, incidentId: event.incidentId,
        monitorId: event.monitorId, customerId: event.customerId, data: event.data,
      };
      if (await this.ledger.route(event, targets, message, this.clock.now())) routed += 1;
    }
    return routed;
  }
}
