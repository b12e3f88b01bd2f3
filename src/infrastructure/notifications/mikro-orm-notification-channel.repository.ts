import { UniqueConstraintViolationException, type FilterQuery } from '@mikro-orm/core';
import { AppError } from '../../domain/shared/app-error';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { ChannelFilter, NotificationChannelRepository } from '../../application/notifications/ports';
import { OrmRepository } from '../persistence/orm-repository';
import { refFilter, scopeFilter } from '../persistence/tenant-scope';
import { ContextSql } from '../persistence/context-sql';
import { sql } from '../persistence/sql';

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

  /**
   * Read as the deliverer reads them, once per round and never saved: straight from the rows (no
   * unit of work, no identity map), which spares hydrating a round's channels into the request's
   * entity manager.
   */
  async findByPublicIds(scope: TenantScope, publicIds: readonly string[]): Promise<NotificationChannel[]> {
    const wanted = publicIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase());
    if (wanted.length === 0) return [];
    const rows = await new ContextSql(this.orm)
      .query<ChannelRow>(sql`SELECT id, public_id, organization_id, customer_id, monitor_id, source_channel_id, name, type, config, events, enabled, secret_ciphertext,
              is_default, consecutive_failures, last_failure_at, last_failure_reason, last_success_at, failing_since, created_at, updated_at, version
         FROM notification_channels WHERE public_id = ANY(${wanted}::uuid[]) AND organization_id = ${scope.organizationId} AND (${scope.customerId}::int IS NULL OR customer_id = ${scope.customerId}::int)`);
    return rows.map(channelOfRow);
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
    return this.em.find(
      NotificationChannel,
      {
        organizationId,
        $or: [{ customerId: null }, { customerId: { $in: [...customerIds] } }],
      } as FilterQuery<NotificationChannel>,
      ORDER,
    );
  }

  forEvent(organizationId: number, customerId: number | null, monitorId: number | null): Promise<NotificationChannel[]> {
    return this.em.find(
      NotificationChannel,
      {
        organizationId,
        $or: [
          { customerId: null },
          ...(customerId !== null ? [{ customerId, monitorId: null }] : []),
          ...(monitorId !== null ? [{ monitorId }] : []),
        ],
      } as FilterQuery<NotificationChannel>,
      ORDER,
    );
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
      if (error instanceof UniqueConstraintViolationException && error.message.includes('notification_channels_organization_key_uq')) {
        throw new AppError('channelKeyTaken');
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
    return { ...scopeFilter(scope) };
  }
}

interface ChannelRow {
  id: number;
  public_id: string;
  organization_id: number;
  customer_id: number | null;
  monitor_id: string | number | null;
  source_channel_id: number | null;
  name: string;
  type: NotificationChannel['type'];
  config: NotificationChannel['config'];
  events: NotificationChannel['events'];
  enabled: boolean;
  secret_ciphertext: string | null;
  is_default: boolean;
  consecutive_failures: number;
  last_failure_at: Date | null;
  last_failure_reason: string | null;
  last_success_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
  version: number;
}

/** A stored channel as MikroORM hydrates it (no constructor: the row was valid when written). */
function channelOfRow(row: ChannelRow): NotificationChannel {
  return Object.assign(Object.create(NotificationChannel.prototype) as NotificationChannel, {
    id: row.id,
    publicId: row.public_id,
    organizationId: row.organization_id,
    customerId: row.customer_id,
    monitorId: row.monitor_id === null ? null : Number(row.monitor_id),
    sourceChannelId: row.source_channel_id,
    name: row.name,
    type: row.type,
    config: row.config,
    events: row.events,
    enabled: row.enabled,
    secretCiphertext: row.secret_ciphertext,
    isDefault: row.is_default,
    consecutiveFailures: row.consecutive_failures,
    lastFailureAt: row.last_failure_at,
    lastFailureReason: row.last_failure_reason,
    lastSuccessAt: row.last_success_at,
    failingSince: row.failing_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  });
}
