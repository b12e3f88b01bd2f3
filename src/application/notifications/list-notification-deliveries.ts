import { AppError } from '../../domain/shared/app-error';
import { CHANNEL_ID, channelRef } from '../../domain/notifications/channel-ref';
import type { Actor } from '../shared/actor';
import type { DeliveryLedger, DeliveryRecord, NotificationChannelRepository } from './ports';

export interface DeliveryListQuery {
  channelId?: string;
  incidentId?: string;
  page: number;
  perPage: number;
}

/**
 * The ledger as the caller sees it, newest first, each delivery with its attempts: "was I told,
 * when, and how". A channel filter names a channel the caller sees (else channelNotFound).
 * Customer-scoped callers (a customer's token, a user bound to a customer) see the deliveries
 * through their customer's channels only: what the organization's own channels were told about the
 * customer's incidents is the organization's business (those channels, their ids and types, the
 * receivers' answers, are not the customer's to read), so none of it is listed, nor counted.
 */
export class ListNotificationDeliveries {
  constructor(
    private readonly ledger: DeliveryLedger,
    private readonly channels: NotificationChannelRepository,
  ) {}

  async execute(actor: Actor, query: DeliveryListQuery): Promise<{ items: DeliveryRecord[]; total: number }> {
    let channelId: string | undefined;
    if (query.channelId !== undefined) {
      const channel = await this.channels.findByRef(actor.scope, channelRef(query.channelId, CHANNEL_ID));
      if (!channel) throw new AppError('channelNotFound');
      channelId = channel.publicId;
    }
    return this.ledger.list(
      actor.scope,
      { channelId, incidentId: query.incidentId },
      {
        offset: (query.page - 1) * query.perPage,
        limit: query.perPage,
      },
    );
  }
}
