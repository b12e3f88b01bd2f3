import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { NotificationMessage } from '../../domain/notifications/notification-message';
import { DIGEST_EVENT, type ChannelEvent } from '../../domain/notifications/channel-events';
import type { DeliveryAttempt, DeliveryFilter, DeliveryRecord } from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import { join, raw, sql, type Sql } from '../persistence/sql';

export interface DeliveryRow {
  id: string;
  organization_id: number;
  channel_public_id: string;
  channel_type: string;
  event: string;
  incident_id: string | null;
  customer_id: number | null;
  monitor_id: string | null;
  payload: Omit<NotificationMessage, 'id'>;
  status: DeliveryRecord['status'];
  attempts: number;
  next_attempt_at: Date;
  created_at: Date;
  delivered_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
  fallback_of: string | null;
  fallback_id?: string | null;
  visible_fallback_of?: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface AttemptRow {
  delivery_id: string;
  attempt: number;
  at: Date;
  status_code: number | null;
  outcome: DeliveryAttempt['outcome'];
  response_excerpt: string | null;
  latency_ms: number;
  error: string | null;
}

/**
 * A delivery's `channel_customer_id` as its insert writes it: the customer of the channel whose
 * integer id `column` holds (a fixed column of the statement, never a caller's value), null for the
 * organization's own channels. The channel's scope never changes, and the row keeps it once the
 * channel is deleted.
 */
export const channelCustomerOf = (column: string): Sql =>
  sql`(SELECT nc.customer_id FROM notification_channels nc WHERE nc.id = ${raw(column)})`;

/**
 * The deliveries a scope sees, on the table `alias` names: the organization's, all of them; a
 * customer's, those through its customer's channels only (never the organization's channels, which
 * it cannot read, nor another customer's), whichever customer the event concerned.
 */
function visibleSql(scope: TenantScope, alias: string): Sql {
  const table = raw(alias);
  return sql`${table}.organization_id = ${scope.organizationId} AND (CAST(${scope.customerId} AS int) IS NULL OR ${table}.channel_customer_id = ${scope.customerId})`;
}

/**
 * The deliveries the read API lists, newest first, with their attempts (two statements for a page).
 * The scope is part of the statement (see visibleSql), so paging and the total count what the caller
 * sees; a fallback's id and the delivery a fallback sends again are shown only when the caller sees
 * that delivery too.
 */
export async function listDeliveries(
  runner: SqlRunner,
  scope: TenantScope,
  filter: DeliveryFilter,
  page: { offset: number; limit: number },
): Promise<{ items: DeliveryRecord[]; total: number }> {
  if (filter.channelId !== undefined && !UUID.test(filter.channelId)) return { items: [], total: 0 };
  // an incident's deliveries include the storm digests that listed it
  const channelId = filter.channelId ?? null;
  const incidentId = filter.incidentId ?? null;
  const where = join(
    [
      visibleSql(scope, 'd'),
      sql`recipient IS NULL`,
      sql`(${channelId}::uuid IS NULL OR channel_public_id = ${channelId}::uuid)`,
      sql`(${incidentId}::text IS NULL OR incident_id = ${incidentId}::text OR (event = '${raw(DIGEST_EVENT)}' AND payload->'data'->'incidents' @> jsonb_build_array(jsonb_build_object('incidentId', ${incidentId}::text))))`,
    ],
    ' AND ',
  );
  const [count] = await runner.query<{ total: number }>(sql`SELECT count(*)::int AS total FROM notification_deliveries d WHERE ${where}`);
  const rows = await runner.query<DeliveryRow>(
    sql`SELECT d.*,
              (SELECT f.id FROM notification_deliveries f WHERE f.fallback_of = d.id AND ${visibleSql(scope, 'f')} LIMIT 1) AS fallback_id,
              (SELECT o.id FROM notification_deliveries o WHERE o.id = d.fallback_of AND ${visibleSql(scope, 'o')}) AS visible_fallback_of
       FROM notification_deliveries d WHERE ${where} ORDER BY created_at DESC, id LIMIT ${page.limit} OFFSET ${page.offset}`,
  );
  const attempts =
    rows.length === 0
      ? []
      : await runner.query<AttemptRow>(
          sql`SELECT * FROM notification_delivery_attempts WHERE delivery_id = ANY(${rows.map((r) => r.id)}::uuid[]) ORDER BY delivery_id, attempt`,
        );
  const byDelivery = new Map<string, DeliveryAttempt[]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.delivery_id) ?? [];
    list.push({
      attempt: a.attempt,
      at: a.at,
      statusCode: a.status_code,
      outcome: a.outcome,
      responseExcerpt: a.response_excerpt,
      latencyMs: a.latency_ms,
      error: a.error,
    });
    byDelivery.set(a.delivery_id, list);
  }
  return {
    total: count?.total ?? 0,
    items: rows.map((row) => ({
      id: row.id,
      channelId: row.channel_public_id,
      channelType: row.channel_type,
      event: row.event as ChannelEvent,
      incidentId: row.incident_id,
      customerId: row.customer_id,
      monitorId: row.monitor_id === null ? null : Number(row.monitor_id),
      status: row.status,
      attempts: byDelivery.get(row.id) ?? [],
      nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
      createdAt: row.created_at,
      deliveredAt: row.delivered_at,
      failedAt: row.failed_at,
      lastError: row.last_error,
      fallbackOf: row.visible_fallback_of ?? null,
      fallbackId: row.fallback_id ?? null,
    })),
  };
}
