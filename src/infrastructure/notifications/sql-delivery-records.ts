import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { NotificationMessage } from '../../domain/notifications/notification-message';
import { DIGEST_EVENT, type ChannelEvent } from '../../domain/notifications/channel-events';
import type { DeliveryAttempt, DeliveryFilter, DeliveryRecord } from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import { scopeSql } from '../persistence/tenant-scope';
import { join, raw, sql } from '../persistence/sql';

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

/** The deliveries the read API lists, newest first, with their attempts (two statements for a page). */
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
      scopeSql(scope, 'd'),
      sql`recipient IS NULL`,
      sql`(${channelId}::uuid IS NULL OR channel_public_id = ${channelId}::uuid)`,
      sql`(${incidentId}::text IS NULL OR incident_id = ${incidentId}::text OR (event = '${raw(DIGEST_EVENT)}' AND payload->'data'->'incidents' @> jsonb_build_array(jsonb_build_object('incidentId', ${incidentId}::text))))`,
    ],
    ' AND ',
  );
  const [count] = await runner.query<{ total: number }>(sql`SELECT count(*)::int AS total FROM notification_deliveries d WHERE ${where}`);
  const rows = await runner.query<DeliveryRow>(
    sql`SELECT d.*, (SELECT f.id FROM notification_deliveries f WHERE f.fallback_of = d.id LIMIT 1) AS fallback_id
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
      fallbackOf: row.fallback_of,
      fallbackId: row.fallback_id ?? null,
    })),
  };
}
