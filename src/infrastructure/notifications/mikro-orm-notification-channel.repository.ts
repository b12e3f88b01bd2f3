import { UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import { AppError } from '../../domain/shared/app-error';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { ChannelFilter, NotificationChannelRepository } from '../../application/notifications/ports';
import { OrmRepository } from '../persistence/orm-repository';
import { refFilter } from '../monitoring/record-ref';

const ORDER = { orderBy: { id: 'asc' } } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Notification channels; a customer-scoped scope reaches its customer's channels only. */
export class MikroOrmNotificationChannelRepository extends OrmRepository implements NotificationChannelRepository {
  async add(channel: NotificationChannel): Promise<NotificationChannel> {
    await this.oneDefault(() => this.persist(channel));
    return channel;
  }

  findByRef(scope: TenantScope, ref: string): Promise<NotificationChannel | null> {
    const filter = refFilter(ref);
    if (!filter) return Promise.resolve(null);
    return this.em.findOne(NotificationChannel, { ...filter, ...this.visible(scope) } as FilterQuery<NotificationChannel>);
  }

  findByPublicIds(scope: TenantScope, publicIds: readonly string[]): Promise<NotificationChannel[]> {
    const wanted = publicIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase());
    if (wanted.length === 0) return Promise.resolve([]);
    return this.em.find(NotificationChannel, { publicId: { $in: wanted }, ...this.visible(scope) } as FilterQuery<NotificationChannel>);
  }

  list(scope: TenantScope, filter: ChannelFilter): Promise<NotificationChannel[]> {
    const where: Record<string, unknown> = this.visible(scope);
    if (filter.customerId !== undefined) where.customerId = filter.customerId;
    if (filter.monitorId !== undefined) where.monitorId = filter.monitorId;
    if (filter.organizationOnly) where.customerId = null;
    return this.em.find(NotificationChannel, where as FilterQuery<NotificationChannel>, ORDER);
  }

  sameScope(organizationId: number, customerId: number | null, monitorId: number | null): Promise<NotificationChannel[]> {
    return this.em.find(NotificationChannel, { organizationId, customerId, monitorId }, ORDER);
  }

  overridesOf(organizationId: number, sourceChannelId: number): Promise<NotificationChannel[]> {
    return this.em.find(NotificationChannel, { organizationId, sourceChannelId }, ORDER);
  }

  forCustomers(organizationId: number, customerIds: readonly number[]): Promise<NotificationChannel[]> {
    return this.em.find(NotificationChannel, {
      organizationId, $or: [{ customerId: null }, { customerId: { $in: [...customerIds] } }],
    } as FilterQuery<NotificationChannel>, ORDER);
  }

  forEvent(organizationId: number, customerId: number | null, monitorId: number | null): Promise<NotificationChannel[]> {
    return this.em.find(NotificationChannel, {
      organizationId,
      $or: [
        { customerId: null },
        ...(customerId !== null ? [{ customerId, monitorId: null }] : []),
        ...(monitorId !== null ? [{ monitorId }] : []),
      ],
    } as FilterQuery<NotificationChannel>, ORDER);
  }

  async save(channel: NotificationChannel): Promise<void> {
    await this.oneDefault(() => this.persist(channel));
  }

  /** Two callers making a default at once: the index keeps one, the other answers `conflict` (try again), not a 500. */
  private async oneDefault(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException && error.message.includes('notification_channels_default_uq')) {
        throw new AppError('conflict', { field: 'isDefault' });
      }
      throw error;
    }
  }

  async remove(channel: NotificationChannel): Promise<void> {
    // the overrides go by the foreign key's cascade; detach the loaded ones so nothing flushes them back
    for (const override of await this.overridesOf(channel.organizationId, channel.id)) this.em.getUnitOfWork().unsetIdentity(override);
    this.em.remove(channel);
    await this.flush();
  }

  private visible(scope: TenantScope): Record<string, unknown> {
    return { organizationId: scope.organizationId, ...(scope.customerId !== null ? { customerId: scope.customerId } : {}) };
  }
}
