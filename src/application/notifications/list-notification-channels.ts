import { AppError } from '../../domain/shared/app-error';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { Actor } from '../shared/actor';
import type { ChannelFilter, ChannelOwners, NotificationChannelRepository } from './ports';

/**
 * The channels the caller sees, by id: all of the organization's for an organization-wide caller,
 * its customer's for a customer-scoped one; narrowed to one customer (its channels and its
 * monitors' overrides) or one monitor (its overrides). A filter naming an invisible customer or
 * monitor answers its not-found code.
 */
export class ListNotificationChannels {
  constructor(
    private readonly channels: NotificationChannelRepository,
    private readonly owners: ChannelOwners,
  ) {}

  async execute(actor: Actor, query: { customerId?: string; websiteId?: string }): Promise<NotificationChannel[]> {
    const filter: ChannelFilter = {};
    if (query.customerId !== undefined) {
      const customer = await this.owners.customer(actor.scope, query.customerId);
      if (!customer) throw new AppError('customerNotFound');
      filter.customerId = customer.id;
    }
    if (query.websiteId !== undefined) {
      const monitor = await this.owners.monitor(actor.scope, query.websiteId);
      if (!monitor) throw new AppError('monitorNotFound');
      filter.monitorId = monitor.id;
    }
    return this.channels.list(actor.scope, filter);
  }
}
