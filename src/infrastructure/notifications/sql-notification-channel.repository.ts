import { AppError } from '../../domain/shared/app-error';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { ChannelFilter, ChannelReads, NotificationChannelRepository } from '../../application/notifications/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf, jsonOf, optionalDateOf } from '../persistence/row';
import { sqlOf } from '../persistence/sql-transaction';
import { empty, join, raw, sql, type Sql } from '../persistence/sql';
import { refCondition, scopeSql } from '../persistence/tenant-scope';

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const COLUMNS =
  raw(`c.id, c.public_id, c.organization_id, c.customer_id, c.monitor_id, c.source_channel_id, c.key, c.name, c.type, c.config,
  c.events, c.enabled, c.secret_ciphertext, c.is_default, c.consecutive_failures, c.last_failure_at, c.last_failure_reason,
  c.last_success_at, c.failing_since, c.created_at, c.updated_at, c.version`);

interface ChannelRow {
  id: number;
  public_id: string;
  organization_id: number;
  customer_id: number | null;
  monitor_id: string | number | null;
  source_channel_id: number | null;
  key: string | null;
  name: string;
  type: NotificationChannel['type'];
  config: unknown;
  events: NotificationChannel['events'];
  enabled: boolean;
  secret_ciphertext: string | null;
  is_default: boolean;
  consecutive_failures: number;
  last_failure_at: Date | string | null;
  last_failure_reason: string | null;
  last_success_at: Date | string | null;
  failing_since: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

const optionalNumber = (value: string | number | null): number | null => (value === null ? null : Number(value));

/** A stored channel (no constructor: the row was valid when written). */
function channelOf(row: ChannelRow): NotificationChannel {
  return Object.assign(Object.create(NotificationChannel.prototype) as NotificationChannel, {
    id: Number(row.id),
    publicId: row.public_id,
    organizationId: Number(row.organization_id),
    customerId: optionalNumber(row.customer_id),
    monitorId: optionalNumber(row.monitor_id),
    sourceChannelId: optionalNumber(row.source_channel_id),
    key: row.key,
    name: row.name,
    type: row.type,
    config: jsonOf<NotificationChannel['config']>(row.config),
    events: row.events,
    enabled: row.enabled,
    secretCiphertext: row.secret_ciphertext,
    isDefault: row.is_default,
    consecutiveFailures: Number(row.consecutive_failures),
    lastFailureAt: optionalDateOf(row.last_failure_at),
    lastFailureReason: row.last_failure_reason,
    lastSuccessAt: optionalDateOf(row.last_success_at),
    failingSince: optionalDateOf(row.failing_since),
    createdAt: dateOf(row.created_at),
    updatedAt: dateOf(row.updated_at),
    version: Number(row.version),
  });
}

/**
 * Two callers making a default at once: the index keeps one, the other answers `conflict` (try
 * again), not a 500; a key another channel of the organization holds is `channelKeyTaken`.
 */
async function uniqueWrite<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await racing(write);
  } catch (error) {
    const { code, constraint } = error as { code?: unknown; constraint?: unknown };
    if (code === UNIQUE_VIOLATION && constraint === 'notification_channels_default_uq')
      throw new AppError('conflict', { field: 'isDefault' });
    if (code === UNIQUE_VIOLATION && constraint === 'notification_channels_organization_key_uq') throw new AppError('channelKeyTaken');
    throw error;
  }
}

/**
 * Notification channels in the `sql` kit; a customer-scoped scope reaches its customer's channels
 * only. A save writes what the channel's own changes touch (never the health columns the delivery
 * ledger keeps) and names the version it read (a lost race is `conflict`).
 */
export class SqlNotificationChannelRepository implements NotificationChannelRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(channel: NotificationChannel, tx: Transaction): Promise<NotificationChannel> {
    const c = channel;
    const [row] = await uniqueWrite(() =>
      sqlOf(tx).query<{ id: number }>(
        sql`INSERT INTO notification_channels (public_id, organization_id, customer_id, monitor_id, source_channel_id, key, name, type, config,
            events, enabled, secret_ciphertext, is_default, consecutive_failures, last_failure_at, last_failure_reason, last_success_at,
            failing_since, created_at, updated_at, version)
          VALUES (${c.publicId}, ${c.organizationId}, ${c.customerId}, ${c.monitorId}, ${c.sourceChannelId}, ${c.key}, ${c.name}, ${c.type},
            ${JSON.stringify(c.config)}::jsonb, ${c.events}::text[], ${c.enabled}, ${c.secretCiphertext}, ${c.isDefault}, ${c.consecutiveFailures},
            ${c.lastFailureAt}, ${c.lastFailureReason}, ${c.lastSuccessAt}, ${c.failingSince}, ${c.createdAt}, ${c.updatedAt}, ${c.version})
          RETURNING id`,
      ),
    );
    c.id = Number(row!.id);
    return c;
  }

  async findByRef(scope: TenantScope, ref: string): Promise<NotificationChannel | null> {
    const condition = refCondition(ref, 'c');
    if (!condition) return null;
    const [row] = await this.select(sql`${condition} AND ${scopeSql(scope, 'c')}`);
    return row ?? null;
  }

  /** Read as the deliverer reads them, once per round and never saved. */
  findByPublicIds(scope: TenantScope, publicIds: readonly string[]): Promise<NotificationChannel[]> {
    const wanted = publicIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase());
    if (wanted.length === 0) return Promise.resolve([]);
    return this.select(sql`c.public_id = ANY(${wanted}::uuid[]) AND ${scopeSql(scope, 'c')}`);
  }

  list(scope: TenantScope, filter: ChannelFilter): Promise<NotificationChannel[]> {
    const conditions = [scopeSql(scope, 'c')];
    if (filter.customerId !== undefined) conditions.push(sql`c.customer_id = ${filter.customerId}`);
    if (filter.monitorId !== undefined) conditions.push(sql`c.monitor_id = ${filter.monitorId}`);
    if (filter.organizationOnly) conditions.push(sql`c.customer_id IS NULL`);
    return this.select(join(conditions, ' AND '));
  }

  sameScope(organizationId: number, customerId: number | null, monitorId: number | null): Promise<NotificationChannel[]> {
    return this.select(
      sql`c.organization_id = ${organizationId} AND c.customer_id IS NOT DISTINCT FROM ${customerId}::int
        AND c.monitor_id IS NOT DISTINCT FROM ${monitorId}::bigint`,
    );
  }

  overridesOf(organizationId: number, sourceChannelId: number): Promise<NotificationChannel[]> {
    return this.select(sql`c.organization_id = ${organizationId} AND c.source_channel_id = ${sourceChannelId}`);
  }

  forCustomers(organizationId: number, customerIds: readonly number[]): Promise<NotificationChannel[]> {
    return this.select(
      sql`c.organization_id = ${organizationId} AND (c.customer_id IS NULL OR c.customer_id = ANY(${[...customerIds]}::int[]))`,
    );
  }

  forEvent(organizationId: number, customerId: number | null, monitorId: number | null): Promise<NotificationChannel[]> {
    const ofCustomer = customerId !== null ? sql` OR (c.customer_id = ${customerId} AND c.monitor_id IS NULL)` : empty;
    const ofMonitor = monitorId !== null ? sql` OR c.monitor_id = ${monitorId}` : empty;
    return this.select(sql`c.organization_id = ${organizationId} AND (c.customer_id IS NULL${ofCustomer}${ofMonitor})`);
  }

  async save(channel: NotificationChannel, tx: Transaction): Promise<void> {
    const c = channel;
    const rows = await uniqueWrite(() =>
      sqlOf(tx).query(
        sql`UPDATE notification_channels SET key = ${c.key}, name = ${c.name}, type = ${c.type}, config = ${JSON.stringify(c.config)}::jsonb,
            events = ${c.events}::text[], enabled = ${c.enabled}, secret_ciphertext = ${c.secretCiphertext}, is_default = ${c.isDefault},
            updated_at = ${c.updatedAt}, version = version + 1
          WHERE id = ${c.id} AND organization_id = ${c.organizationId} AND version = ${c.version} RETURNING version`,
      ),
    );
    versionSaved(c, rows);
  }

  readsIn(tx: Transaction): ChannelReads {
    return new SqlNotificationChannelRepository(sqlOf(tx));
  }

  /** The overrides made of it go by the foreign key's cascade. */
  async remove(channel: NotificationChannel, tx: Transaction): Promise<void> {
    await racing(() =>
      sqlOf(tx).query(sql`DELETE FROM notification_channels WHERE id = ${channel.id} AND organization_id = ${channel.organizationId}`),
    );
  }

  private async select(where: Sql): Promise<NotificationChannel[]> {
    const rows = await this.sql.query<ChannelRow>(sql`SELECT ${COLUMNS} FROM notification_channels c WHERE ${where} ORDER BY c.id ASC`);
    return rows.map(channelOf);
  }
}
