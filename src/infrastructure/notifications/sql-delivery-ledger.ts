import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { NotificationMessage } from '../../domain/notifications/notification-message';
import type { ChannelEvent } from '../../domain/notifications/channel-events';
import type {
  ClaimedDelivery, DeliveryAttempt, DeliveryFilter, DeliveryLedger, DeliveryNext, DeliveryRecord, DispatchedEvent, EventRoute, OutboxEvent,
} from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import { WATCH_NOTIFIED_CTES } from '../watches/watch-notified.sql';

interface OutboxRow { id: string; organization_id: number; kind: string; payload: Record<string, unknown> }
interface DeliveryRow {
  id: string; organization_id: number; channel_public_id: string; channel_type: string; event: string; incident_id: string | null;
  customer_id: number | null; monitor_id: string | null; payload: Omit<NotificationMessage, 'id'>; status: DeliveryRecord['status'];
  attempts: number; next_attempt_at: Date; created_at: Date; delivered_at: Date | null; failed_at: Date | null; last_error: string | null;
}
interface AttemptRow {
  delivery_id: string; attempt: number; at: Date; status_code: number | null; outcome: DeliveryAttempt['outcome'];
  response_excerpt: string | null; latency_ms: number; error: string | null;
}

interface PendingSettle {
  owner: string; deliveryId: string; attempt: DeliveryAttempt; next: DeliveryNext;
  resolve(settled: boolean): void; reject(error: unknown): void;
}
/** Settles in one statement at most (a worker's round claims fewer). */
const SETTLE_BATCH = 500;

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The delivery ledger in PostgreSQL. Every write is one statement (a CTE where two tables change),
 * so it is atomic without a transaction spanning round trips: routing marks the outbox rows and
 * inserts their deliveries together; settling records the attempt only if the lease is still ours.
 * Routing also stamps the outbox row's delivered_at: handed to the ledger, so the outbox backlog
 * gauge counts events not routed yet, and the ledger's own status says what reached the receiver.
 */
export class SqlDeliveryLedger implements DeliveryLedger {
  constructor(private readonly sql: SqlRunner) {}

  async unroutedEvents(kinds: readonly string[], limit: number): Promise<OutboxEvent[]> {
    const rows = await this.sql.query<OutboxRow>(
      `SELECT id, organization_id, kind, payload FROM notification_outbox
        WHERE routed_at IS NULL AND payload IS NOT NULL AND kind = ANY(?::text[]) ORDER BY id LIMIT ?`,
      [kinds, limit], { prepare: true },
    );
    return rows.map((row) => ({
      id: Number(row.id), organizationId: row.organization_id, kind: row.kind,
      customerId: num(row.payload.customerId), monitorId: num(row.payload.monitorId), incidentId: str(row.payload.incidentId),
      occurredAt: str(row.payload.occurredAt) ?? new Date(0).toISOString(), summary: str(row.payload.summary) ?? row.kind,
      data: (row.payload.data ?? {}) as Record<string, unknown>,
    }));
  }

  async route(routes: readonly EventRoute[], at: Date): Promise<number> {
    if (routes.length === 0) return 0;
    // One statement, so one commit, for a round's events: per-event statements each waited for their own commit.
    const channels = routes.flatMap((r) => r.channels.map((c) => ({ outboxId: r.event.id, ...c })));
    const [row] = await this.sql.query<{ routed: number }>(
      `WITH input AS (
         SELECT * FROM unnest(?::bigint[], ?::int[], ?::bigint[], ?::text[], ?::text[], ?::text[])
           AS e(outbox_id, customer_id, monitor_id, incident_id, event, payload)
       ), marked AS (
         UPDATE notification_outbox o SET routed_at = ?, delivered_at = coalesce(o.delivered_at, ?)
           FROM input WHERE o.id = input.outbox_id AND o.routed_at IS NULL
         RETURNING o.id, o.organization_id
       ), inserted AS (
         INSERT INTO notification_deliveries
           (organization_id, outbox_id, channel_id, channel_public_id, channel_type, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
         SELECT marked.organization_id, marked.id, ch.id, ch.public_id, ch.type, input.customer_id, input.monitor_id, input.incident_id,
                input.event, input.payload::jsonb, ?, ?
           FROM unnest(?::bigint[], ?::int[], ?::uuid[], ?::text[]) AS ch(outbox_id, id, public_id, type)
           JOIN marked ON marked.id = ch.outbox_id
           JOIN input ON input.outbox_id = ch.outbox_id
         ON CONFLICT (outbox_id, channel_public_id) DO NOTHING
       )
       SELECT count(*)::int AS routed FROM marked`,
      [
        routes.map((r) => r.event.id), routes.map((r) => r.event.customerId), routes.map((r) => r.event.monitorId),
        routes.map((r) => r.event.incidentId), routes.map((r) => r.message.event), routes.map((r) => JSON.stringify(r.message)),
        at, at, at, at,
        channels.map((c) => c.outboxId), channels.map((c) => c.id), channels.map((c) => c.publicId), channels.map((c) => c.type),
      ],
    );
    return row?.routed ?? 0;
  }

  async dispatch(
    event: DispatchedEvent, channels: readonly { id: number; publicId: string; type: string }[], message: Omit<NotificationMessage, 'id'>, at: Date,
  ): Promise<string[]> {
    // The outbox row carries what routed events carry (customerId, occurredAt, summary, data), so
    // every event a channel received reads alike there; it is routed and handed over at once.
    const payload = {
      kind: event.kind, organizationId: event.organizationId, customerId: message.customerId, monitorId: message.monitorId,
      incidentId: message.incidentId, occurredAt: message.occurredAt, summary: message.summary, data: message.data, requestedBy: event.requestedBy,
    };
    const rows = await this.sql.query<{ id: string; channel_public_id: string }>(
      `WITH event AS (
         INSERT INTO notification_outbox (organization_id, kind, payload, subject, body, routed_at, delivered_at)
         VALUES (?, ?, ?::jsonb, ?, ?, ?, ?) RETURNING id, organization_id
       )
       INSERT INTO notification_deliveries
         (organization_id, outbox_id, channel_id, channel_public_id, channel_type, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
       SELECT event.organization_id, event.id, ch.id, ch.public_id, ch.type, ?, ?, ?, ?, ?::jsonb, ?, ?
         FROM event, unnest(?::int[], ?::uuid[], ?::text[]) AS ch(id, public_id, type)
       RETURNING id::text, channel_public_id::text`,
      [
        event.organizationId, event.kind, JSON.stringify(payload), message.summary, message.summary, at, at,
        message.customerId, message.monitorId, message.incidentId, message.event, JSON.stringify(message), at, at,
        channels.map((c) => c.id), channels.map((c) => c.publicId), channels.map((c) => c.type),
      ],
    );
    const byChannel = new Map(rows.map((row) => [row.channel_public_id, row.id]));
    return channels.map((c) => byChannel.get(c.publicId)!);
  }

  async claimDue(owner: string, now: Date, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    const rows = await this.sql.query<DeliveryRow>(
      `UPDATE notification_deliveries d SET lease_owner = ?, lease_until = ?
         FROM (SELECT id FROM notification_deliveries
                WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?) AND recipient IS NULL
                ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED) due
        WHERE d.id = due.id
        RETURNING d.*`,
      [owner, new Date(now.getTime() + leaseMs), now, now, limit], { prepare: true },
    );
    return rows.map((row) => ({
      id: row.id, organizationId: row.organization_id, channelPublicId: row.channel_public_id, attempts: row.attempts,
      message: { ...row.payload, id: row.id },
    }));
  }

  /**
   * Settles wait for one statement with the settles that finish at the same time: a round's sends to
   * loopback or a fast receiver finish together, and one statement commits them all instead of one
   * commit each. The first waits for the next turn of the event loop; while a statement runs, the
   * next batch gathers.
   */
  settle(owner: string, deliveryId: string, attempt: DeliveryAttempt, next: DeliveryNext): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.settles.push({ owner, deliveryId, attempt, next, resolve, reject });
      if (!this.settling) {
        this.settling = true;
        setImmediate(() => void this.settleQueued());
      }
    });
  }

  private readonly settles: PendingSettle[] = [];
  private settling = false;

  private async settleQueued(): Promise<void> {
    while (this.settles.length > 0) {
      // One settle per delivery in a statement (a delivery's second settle waits for the next).
      const batch: PendingSettle[] = [];
      const ids = new Set<string>();
      for (let i = 0; i < this.settles.length && batch.length < SETTLE_BATCH;) {
        const pending = this.settles[i]!;
        if (ids.has(pending.deliveryId)) { i++; continue; }
        ids.add(pending.deliveryId);
        batch.push(pending);
        this.settles.splice(i, 1);
      }
      try {
        const settled = new Set(await this.settleMany(batch));
        for (const s of batch) s.resolve(settled.has(s.deliveryId));
      } catch (error) {
        for (const s of batch) s.reject(error);
      }
    }
    this.settling = false;
  }

  private async settleMany(batch: readonly PendingSettle[]): Promise<string[]> {
    const col = <T>(f: (s: PendingSettle) => T) => batch.map(f);
    const rows = await this.sql.query<{ id: string }>(
      `WITH input AS (
         SELECT * FROM unnest(?::uuid[], ?::text[], ?::text[], ?::int[], ?::timestamptz[], ?::timestamptz[], ?::timestamptz[], ?::text[],
                              ?::timestamptz[], ?::int[], ?::text[], ?::text[], ?::int[], ?::text[])
           AS i(id, owner, status, attempt, next_attempt_at, delivered_at, failed_at, last_error, at, status_code, outcome, response_excerpt, latency_ms, error)
       ), settled AS (
         UPDATE notification_deliveries d
            SET status = i.status, attempts = i.attempt, next_attempt_at = coalesce(i.next_attempt_at, d.next_attempt_at),
                delivered_at = i.delivered_at, failed_at = i.failed_at, last_error = coalesce(i.last_error, d.last_error), lease_owner = NULL, lease_until = NULL
           FROM input i
          WHERE d.id = i.id AND d.lease_owner = i.owner AND d.status = 'pending'
          RETURNING d.id, d.outbox_id, d.event, d.status, d.delivered_at, d.dedup_key
       ), ${WATCH_NOTIFIED_CTES}
       INSERT INTO notification_delivery_attempts (delivery_id, attempt, at, status_code, outcome, response_excerpt, latency_ms, error)
       SELECT i.id, i.attempt, i.at, i.status_code, i.outcome, i.response_excerpt, i.latency_ms, i.error FROM settled JOIN input i ON i.id = settled.id
       RETURNING delivery_id::text AS id`,
      [
        col((s) => s.deliveryId), col((s) => s.owner), col((s) => s.next.status), col((s) => s.attempt.attempt),
        col((s) => (s.next.status === 'pending' ? s.next.nextAttemptAt : null)),
        col((s) => (s.next.status === 'delivered' ? s.attempt.at : null)), col((s) => (s.next.status === 'failed' ? s.attempt.at : null)),
        col((s) => (s.next.status === 'failed' ? s.next.reason : s.attempt.error)),
        col((s) => s.attempt.at), col((s) => s.attempt.statusCode), col((s) => s.attempt.outcome), col((s) => s.attempt.responseExcerpt),
        col((s) => Math.round(s.attempt.latencyMs)), col((s) => s.attempt.error),
      ],
      // Prepared: planned once per connection, so the watch CTEs cost a batch of other events next to nothing.
      { prepare: true },
    );
    return rows.map((row) => row.id);
  }

  async list(scope: TenantScope, filter: DeliveryFilter, page: { offset: number; limit: number }): Promise<{ items: DeliveryRecord[]; total: number }> {
    if (filter.channelId !== undefined && !UUID.test(filter.channelId)) return { items: [], total: 0 };
    const where = [`organization_id = ?`, `recipient IS NULL`, `(?::int IS NULL OR customer_id = ?::int)`, `(?::uuid IS NULL OR channel_public_id = ?::uuid)`, `(?::text IS NULL OR incident_id = ?::text)`].join(' AND ');
    const params = [scope.organizationId, scope.customerId, scope.customerId, filter.channelId ?? null, filter.channelId ?? null, filter.incidentId ?? null, filter.incidentId ?? null];
    const [count] = await this.sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM notification_deliveries WHERE ${where}`, params);
    const rows = await this.sql.query<DeliveryRow>(
      `SELECT * FROM notification_deliveries WHERE ${where} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`, [...params, page.limit, page.offset],
    );
    const attempts = rows.length === 0 ? [] : await this.sql.query<AttemptRow>(
      `SELECT * FROM notification_delivery_attempts WHERE delivery_id = ANY(?::uuid[]) ORDER BY delivery_id, attempt`, [rows.map((r) => r.id)],
    );
    const byDelivery = new Map<string, DeliveryAttempt[]>();
    for (const a of attempts) {
      const list = byDelivery.get(a.delivery_id) ?? [];
      list.push({ attempt: a.attempt, at: a.at, statusCode: a.status_code, outcome: a.outcome, responseExcerpt: a.response_excerpt, latencyMs: a.latency_ms, error: a.error });
      byDelivery.set(a.delivery_id, list);
    }
    return {
      total: count?.total ?? 0,
      items: rows.map((row) => ({
        id: row.id, channelId: row.channel_public_id, channelType: row.channel_type, event: row.event as ChannelEvent, incidentId: row.incident_id,
        customerId: row.customer_id, monitorId: row.monitor_id === null ? null : Number(row.monitor_id), status: row.status,
        attempts: byDelivery.get(row.id) ?? [], nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
        createdAt: row.created_at, deliveredAt: row.delivered_at, failedAt: row.failed_at, lastError: row.last_error,
      })),
    };
  }
}
