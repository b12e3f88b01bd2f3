import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { NotificationMessage } from '../../domain/notifications/notification-message';
import { DIGEST_EVENT, type ChannelEvent } from '../../domain/notifications/channel-events';
import type { DeliveryAttempt, DeliveryFilter, DeliveryRecord } from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import { scopeSql } from '../persistence/tenant-scope';

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
  sql: SqlRunner,
  scope: TenantScope,
  filter: DeliveryFilter,
  page: { offset: number; limit: number },
): Promise<{ items: DeliveryRecord[]; total: number }> {
  if (filter.channelId !== undefined && !UUID.test(filter.channelId)) return { items: [], total: 0 };
  // an incident's deliveries include the storm digests that listed it
  const scoped = scopeSql(scope, 'd');
  const where = [
    scoped.sql,
    `recipient IS NULL`,
    `(?::uuid IS NULL OR channel_public_id = ?::uuid)`,
    `(?::text IS NULL OR incident_id = ?::text OR (event = '${DIGEST_EVENT}' AND payload->'data'->'incidents' @> jsonb_build_array(jsonb_build_object('incidentId', ?::text))))`,
  ].join(' AND ');
  const params = [
    ...scoped.params,
    filter.channelId ?? null,
    filter.channelId ?? null,
    filter.incidentId ?? null,
    filter.incidentId ?? null,
    filter.incidentId ?? null,
  ];
  const [count] = await sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM notification_deliveries d WHERE ${where}`, params);
  const rows = await sql.query<DeliveryRow>(
    `SELECT d.*, (SELECT f.id FROM notification_deliveries f WHERE f.fallback_of = d.id LIMIT 1) AS fallback_id
       FROM notification_deliveries d WHERE ${where} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`,
    [...params, page.limit, page.offset],
  );
  const attempts =
    rows.length === 0
      ? []
      : await sql.query<AttemptRow>(
          `SELECT * FROM notification_delivery_attempts WHERE delivery_id = ANY(?::uuid[]) ORDER BY delivery_id, attempt`,
          [rows.map((r) => r.id)],
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
