import type { NotificationMessage } from '../../domain/notifications/notification-message';
import { DIGEST_EVENT } from '../../domain/notifications/channel-events';
import type { StormPolicy } from '../../domain/notifications/storm-digest';
import type { DeliveryTarget, HeldWindow, OutboxEvent, StormLedger } from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import { outboxEventOf, type OutboxRow } from './sql-delivery-ledger';

interface HeldRow extends OutboxRow { held_kind: string; held_until: Date; customer_id: number }

/**
 * Storm windows in PostgreSQL, each write one statement. Routing locks the outbox row (a second
 * router finds it routed and writes nothing), counts the event in its window row under that row's
 * lock (ON CONFLICT DO UPDATE: concurrent routers of one customer queue there), and marks the
 * event routed, inserting its deliveries or holding it. The window rule is StormPolicy's
 * (`countInWindow` in the domain): a window ended by `at` restarts at 1; past `alone` an event
 * is held until the window's end. Digesting locks the window's held events and goes ahead only if
 * it got all of them undigested.
 */
export class SqlStormLedger implements StormLedger {
  constructor(private readonly sql: SqlRunner) {}

  async routeGrouped(
    event: OutboxEvent, kind: string, channels: readonly DeliveryTarget[], message: Omit<NotificationMessage, 'id'>, at: Date, policy: StormPolicy,
  ): Promise<'sent' | 'held' | null> {
    const rows = await this.sql.query<{ held_until: Date | null }>(
      `WITH claim AS (
         SELECT id, organization_id FROM notification_outbox WHERE id = ? AND routed_at IS NULL FOR UPDATE
       ), win AS (
         INSERT INTO notification_storm_windows AS w (organization_id, customer_id, kind, window_ends_at, events)
         SELECT organization_id, ?::int, ?::text, ?::timestamptz, 1 FROM claim
         ON CONFLICT (organization_id, customer_id, kind) DO UPDATE SET
           window_ends_at = CASE WHEN w.window_ends_at <= ?::timestamptz THEN excluded.window_ends_at ELSE w.window_ends_at END,
           events = CASE WHEN w.window_ends_at <= ?::timestamptz THEN 1 ELSE w.events + 1 END
         RETURNING window_ends_at, events
       ), marked AS (
         UPDATE notification_outbox o SET routed_at = ?, delivered_at = coalesce(o.delivered_at, ?),
                held_until = CASE WHEN win.events > ?::int THEN win.window_ends_at END,
                held_kind = CASE WHEN win.events > ?::int THEN ?::text END
           FROM claim, win WHERE o.id = claim.id
         RETURNING o.id, o.organization_id, o.held_until
       ), inserted AS (
         INSERT INTO notification_deliveries
           (organization_id, outbox_id, channel_id, channel_public_id, channel_type, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
         SELECT marked.organization_id, marked.id, ch.id, ch.public_id, ch.type, ?, ?, ?, ?, ?::jsonb, ?, ?
           FROM marked, unnest(?::int[], ?::uuid[], ?::text[]) AS ch(id, public_id, type)
          WHERE marked.held_until IS NULL
         ON CONFLICT (outbox_id, channel_public_id) DO NOTHING
       )
       SELECT held_until FROM marked`,
      [
        event.id, event.customerId, kind, new Date(at.getTime() + policy.windowMs), at, at,
        at, at, policy.alone, policy.alone, kind,
        event.customerId, event.monitorId, event.incidentId, message.event, JSON.stringify(message), at, at,
        channels.map((c) => c.id), channels.map((c) => c.publicId), channels.map((c) => c.type),
      ],
    );
    if (rows.length === 0) return null;
    return rows[0]!.held_until === null ? 'sent' : 'held';
  }

  async endedWindows(now: Date, limit: number): Promise<HeldWindow[]> {
    const rows = await this.sql.query<HeldRow>(
      `WITH windows AS (
         SELECT DISTINCT organization_id, (payload->>'customerId')::int AS customer_id, held_kind, held_until
           FROM notification_outbox WHERE held_until <= ? AND digest_id IS NULL
          ORDER BY held_until LIMIT ?
       )
       SELECT o.id, o.organization_id, o.kind, o.payload, w.held_kind, w.held_until, w.customer_id
         FROM windows w JOIN notification_outbox o
           ON o.held_until = w.held_until AND o.organization_id = w.organization_id AND o.held_kind = w.held_kind
          AND (o.payload->>'customerId')::int = w.customer_id
        WHERE o.digest_id IS NULL
        ORDER BY o.held_until, o.id`,
      [now, limit],
    );
    const windows = new Map<string, HeldWindow & { events: OutboxEvent[] }>();
    for (const row of rows) {
      const key = `${row.organization_id}/${row.customer_id}/${row.held_kind}/${row.held_until.toISOString()}`;
      const window = windows.get(key) ?? {
        organizationId: row.organization_id, customerId: row.customer_id, kind: row.held_kind, endedAt: row.held_until, events: [],
      };
      window.events.push(outboxEventOf(row));
      windows.set(key, window);
    }
    return [...windows.values()];
  }

  async digest(
    window: HeldWindow, deliveries: readonly { channel: DeliveryTarget; message: Omit<NotificationMessage, 'id'> }[], at: Date,
  ): Promise<boolean> {
    const ids = window.events.map((e) => e.id);
    const summary = `${ids.length} held ${window.kind} events, digested`;
    const payload = {
      kind: 'incidentDigest', organizationId: window.organizationId, customerId: window.customerId, monitorId: null, incidentId: null,
      occurredAt: window.endedAt.toISOString(), summary, data: { digestOf: window.kind, count: ids.length, outboxIds: ids },
    };
    const rows = await this.sql.query<{ id: string }>(
      `WITH claim AS (
         SELECT id FROM notification_outbox WHERE id = ANY(?::bigint[]) AND digest_id IS NULL FOR UPDATE
       ), whole AS (
         SELECT count(*) = ?::int AS ok FROM claim
       ), event AS (
         INSERT INTO notification_outbox (organization_id, kind, payload, subject, body, routed_at, delivered_at)
         SELECT ?, 'incidentDigest', ?::jsonb, ?, ?, ?, ? FROM whole WHERE whole.ok
         RETURNING id, organization_id
       ), marked AS (
         UPDATE notification_outbox o SET digest_id = event.id FROM event WHERE o.id IN (SELECT id FROM claim) RETURNING o.id
       ), inserted AS (
         INSERT INTO notification_deliveries
           (organization_id, outbox_id, channel_id, channel_public_id, channel_type, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
         SELECT event.organization_id, event.id, ch.id, ch.public_id, ch.type, ?, NULL, NULL, ?, ch.payload::jsonb, ?, ?
           FROM event, unnest(?::int[], ?::uuid[], ?::text[], ?::text[]) AS ch(id, public_id, type, payload)
       )
       SELECT id::text FROM event`,
      [
        ids, ids.length, window.organizationId, JSON.stringify(payload), summary, summary, at, at,
        window.customerId, DIGEST_EVENT, at, at,
        deliveries.map((d) => d.channel.id), deliveries.map((d) => d.channel.publicId), deliveries.map((d) => d.channel.type),
        deliveries.map((d) => JSON.stringify(d.message)),
      ],
    );
    return rows.length > 0;
  }
}
