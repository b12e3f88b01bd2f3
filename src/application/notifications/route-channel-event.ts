import { type ChannelEventOccurrence, channelsToNotify } from '../../domain/notifications/channel-routing';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { NotificationChannelRepository } from './ports';

/** The channels an event goes to, as configured now (for the deliverer; no caller, the event carries its tenant). */
export class RouteChannelEvent {
  constructor(private readonly channels: NotificationChannelRepository) {}

  async execute(event: ChannelEventOccurrence): Promise<NotificationChannel[]> {
    return channelsToNotify(event, await this.channels.forEvent(event.organizationId, event.customerId, event.monitorId));
  }
}
