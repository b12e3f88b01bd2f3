import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { NotificationMessage } from '../../domain/notifications/notification-message';
import type {
  ClaimedDelivery,
  DeliveryAttempt,
  DeliveryFilter,
  DeliveryLedger,
  DeliveryNext,
  DeliveryRecord,
  DispatchedEvent,
  EventRoute,
  OutboxEvent,
  Settlement,
} from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import { channelCustomerOf, listDeliveries, type DeliveryRow } from './sql-delivery-records';
import type { OutboxRow, RefusedEvents } from '../event-catalogue/published-events';
import { relayedEventsOf } from './relayed-events';
import { warnRefused } from '../event-catalogue/refused';
import { deliveryAttemptsLiveEvents } from '../live-events/live-event-append';
import { raw, sql } from '../persistence/sql';

/** What a failed attempt says in the channel's health (`lastFailureReason`). */
const failureReason = ({ attempt, next }: Settlement): string =>
  next.status === 'failed'
    ? next.reason
    : (attempt.error ?? (attempt.statusCode === null ? 'No answer' : `Answered ${attempt.statusCode}`));

/**
 * The delivery ledger in PostgreSQL. Every write is one statement (a CTE where two tables change),
 * so it is atomic without a transaction spanning round trips: routing marks the outbox rows and
 * inserts their deliveries together; settling records the attempt only if the lease is still ours.
 * Routing also stamps the outbox row's delivered_at: handed to the ledger, so the outbox backlog
 * gauge counts events not routed yet, and the ledger's own status says what reached the receiver.
 */
export class SqlDeliveryLedger implements DeliveryLedger {
  /**
   * `settleFollowUps`: CTEs of other contexts run in the settle statement after its CTE `settled`
   * (the settled delivery's outbox_id, event, status, delivered_at and dedup_key), so what they
   * write commits with the delivered status; the watches context's marks are one (bound in the
   * composition root, so this ledger names no context that reads it).
   */
  constructor(
    private readonly sql: SqlRunner,
    private readonly settleFollowUps: readonly string[] = [],
    private readonly refused: RefusedEvents = warnRefused,
  ) {}

  /**
   * Rows are read through the event decoder: a row it refuses is reported and set aside (marked
   * routed, with no delivery, and left undelivered, so the outbox backlog gauge keeps showing it)
   * instead of holding up the rows behind it.
   */
  async unroutedEvents(kinds: readonly string[], limit: number): Promise<OutboxEvent[]> {
    const rows = await this.sql.query<OutboxRow>(
      sql`SELECT id, organization_id, kind, payload FROM notification_outbox
        WHERE routed_at IS NULL AND payload IS NOT NULL AND kind = ANY(${kinds}::text[]) ORDER BY id LIMIT ${limit}`,
      { prepare: true },
    );
    const refused: number[] = [];
    const events = relayedEventsOf(rows, (set) => {
      refused.push(...set.map((r) => r.id));
      this.refused(set);
    });
    if (refused.length > 0) {
      await this.sql.query(
        sql`UPDATE notification_outbox SET routed_at = now() WHERE id = ANY(${refused}::bigint[]) AND routed_at IS NULL`,
      );
    }
    return events.map((e) => e.event);
  }

  async route(
    event: OutboxEvent,
    channels: readonly { id: number; publicId: string; type: string }[],
    message: Omit<NotificationMessage, 'id'>,
    at: Date,
  ): Promise<boolean> {
    return (await this.routeMany([{ event, channels, message }], at)) > 0;
  }

  async routeMany(routes: readonly EventRoute[], at: Date): Promise<number> {
    if (routes.length === 0) return 0;
    // One statement, so one commit, for a round's events: per-event statements each waited for their own commit.
    const channels = routes.flatMap((r) => r.channels.map((c) => ({ outboxId: r.event.id, ...c })));
    const [row] = await this.sql.query<{ routed: number }>(sql`WITH input AS (
         SELECT * FROM unnest(${routes.map((r) => r.event.id)}::bigint[], ${routes.map((r) => r.event.customerId)}::int[], ${routes.map((r) => r.event.monitorId)}::bigint[], ${routes.map((r) => r.event.incidentId)}::text[], ${routes.map((r) => r.message.event)}::text[], ${routes.map((r) => JSON.stringify(r.message))}::text[])
           AS e(outbox_id, customer_id, monitor_id, incident_id, event, payload)
       ), marked AS (
         UPDATE notification_outbox o SET routed_at = ${at}, delivered_at = coalesce(o.delivered_at, ${at})
           FROM input WHERE o.id = input.outbox_id AND o.routed_at IS NULL
         RETURNING o.id, o.organization_id
       ), inserted AS (
         INSERT INTO notification_deliveries
           (organization_id, outbox_id, channel_id, channel_public_id, channel_type, channel_customer_id, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
         SELECT marked.organization_id, marked.id, ch.id, ch.public_id, ch.type, ${channelCustomerOf('ch.id')}, input.customer_id, input.monitor_id, input.incident_id,
                input.event, input.payload::jsonb, ${at}, ${at}
           FROM unnest(${channels.map((c) => c.outboxId)}::bigint[], ${channels.map((c) => c.id)}::int[], ${channels.map((c) => c.publicId)}::uuid[], ${channels.map((c) => c.type)}::text[]) AS ch(outbox_id, id, public_id, type)
           JOIN marked ON marked.id = ch.outbox_id
           JOIN input ON input.outbox_id = ch.outbox_id
         ON CONFLICT (outbox_id, channel_public_id) DO NOTHING
       )
       SELECT count(*)::int AS routed FROM marked`);
    return row?.routed ?? 0;
  }

  async dispatch(
    event: DispatchedEvent,
    channels: readonly { id: number; publicId: string; type: string }[],
    message: Omit<NotificationMessage, 'id'>,
    at: Date,
  ): Promise<string[]> {
    // The outbox row carries what routed events carry (customerId, occurredAt, summary, data), so
    // every event a channel received reads alike there; it is routed and handed over at once.
    const payload = {
      kind: event.kind,
      organizationId: event.organizationId,
      customerId: message.customerId,
      monitorId: message.monitorId,
      incidentId: message.incidentId,
      occurredAt: message.occurredAt,
      summary: message.summary,
      data: message.data,
      requestedBy: event.requestedBy,
    };
    const rows = await this.sql.query<{ id: string; channel_public_id: string }>(sql`WITH event AS (
         INSERT INTO notification_outbox (organization_id, kind, payload, subject, body, routed_at, delivered_at)
         VALUES (${event.organizationId}, ${event.kind}, ${JSON.stringify(payload)}::jsonb, ${message.summary}, ${message.summary}, ${at}, ${at}) RETURNING id, organization_id
       )
       INSERT INTO notification_deliveries
         (organization_id, outbox_id, channel_id, channel_public_id, channel_type, channel_customer_id, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
       SELECT event.organization_id, event.id, ch.id, ch.public_id, ch.type, ${channelCustomerOf('ch.id')}, ${message.customerId}, ${message.monitorId}, ${message.incidentId}, ${message.event}, ${JSON.stringify(message)}::jsonb, ${at}, ${at}
         FROM event, unnest(${channels.map((c) => c.id)}::int[], ${channels.map((c) => c.publicId)}::uuid[], ${channels.map((c) => c.type)}::text[]) AS ch(id, public_id, type)
       RETURNING id::text, channel_public_id::text`);
    const byChannel = new Map(rows.map((row) => [row.channel_public_id, row.id]));
    return channels.map((c) => byChannel.get(c.publicId)!);
  }

  async claimDue(owner: string, now: Date, leaseMs: number, limit: number, sendingHere: readonly string[]): Promise<ClaimedDelivery[]> {
    const rows = await this.sql.query<DeliveryRow>(
      sql`UPDATE notification_deliveries d SET lease_owner = ${owner}, lease_until = ${new Date(now.getTime() + leaseMs)}
         FROM (SELECT id FROM notification_deliveries
                WHERE status = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until <= ${now}) AND recipient IS NULL
                  AND id <> ALL(${sendingHere}::uuid[])
                ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
        WHERE d.id = due.id
        RETURNING d.id, d.organization_id, d.channel_public_id, d.attempts, d.payload, d.fallback_of`,
      { prepare: true },
    );
    return rows.map((row) => ({
      id: row.id,
      organizationId: row.organization_id,
      channelPublicId: row.channel_public_id,
      attempts: row.attempts,
      message: { ...row.payload, id: row.id },
      fallbackOf: row.fallback_of,
    }));
  }

  async nextDueAt(sendingHere: readonly string[]): Promise<Date | null> {
    // Over the pending rows only (their partial index; few outside a storm); a leased row is due when its lease ends.
    const [row] = await this.sql.query<{ due: Date | null }>(
      sql`SELECT min(greatest(next_attempt_at, coalesce(lease_until, next_attempt_at))) AS due FROM notification_deliveries
         WHERE status = 'pending' AND id <> ALL(${sendingHere}::uuid[])`,
      { prepare: true },
    );
    return row?.due ? new Date(row.due) : null;
  }

  async claimOne(owner: string, id: string, now: Date, leaseMs: number): Promise<ClaimedDelivery | null> {
    const [row] = await this.sql
      .query<DeliveryRow>(sql`UPDATE notification_deliveries SET lease_owner = ${owner}, lease_until = ${new Date(now.getTime() + leaseMs)}
        WHERE id = ${id}::uuid AND status = 'pending' AND (lease_until IS NULL OR lease_until <= ${now}) AND recipient IS NULL
        RETURNING *`);
    return row
      ? {
          id: row.id,
          organizationId: row.organization_id,
          channelPublicId: row.channel_public_id,
          attempts: row.attempts,
          message: { ...row.payload, id: row.id },
          fallbackOf: row.fallback_of,
        }
      : null;
  }

  async settle(owner: string, deliveryId: string, attempt: DeliveryAttempt, next: DeliveryNext): Promise<boolean> {
    return (await this.settleMany(owner, [{ deliveryId, attempt, next }])).has(deliveryId);
  }

  async settleMany(owner: string, settlements: readonly Settlement[]): Promise<Set<string>> {
    if (settlements.length === 0) return new Set();
    // Per row as one settle would: the attempt and the outcome recorded only while the lease is the
    // caller's. The channel's health moves with every attempt: delivered resets the streak (and the
    // failing mark); a failed attempt of the channel's own (a retry included) lengthens it; the
    // service's own give-ups (channel disabled or deleted) leave it. A channel with several attempts
    // here ends as if they were settled one after another in the order given.
    const column = <T>(pick: (s: Settlement) => T) => settlements.map(pick);
    const health = (s: Settlement) => (s.next.status === 'delivered' ? 'delivered' : s.next.channelFault ? 'failed' : null);
    const rows = await this.sql.query<{ delivery_id: string }>(
      sql`WITH input AS (
         SELECT * FROM unnest(${column((s) => s.deliveryId)}::uuid[], ${column((s) => s.next.status)}::text[], ${column((s) => s.attempt.attempt)}::int[], ${column((s) => (s.next.status === 'pending' ? s.next.nextAttemptAt : null))}::timestamptz[], ${column((s) => (s.next.status === 'delivered' ? s.attempt.at : null))}::timestamptz[], ${column((s) => (s.next.status === 'failed' ? s.attempt.at : null))}::timestamptz[], ${column((s) => (s.next.status === 'failed' ? s.next.reason : s.attempt.error))}::text[], ${column((s) => s.next.status !== 'delivered' && s.next.fallBack === true)}::boolean[],
                              ${column(health)}::text[], ${column(failureReason)}::text[], ${column((s) => s.attempt.at)}::timestamptz[], ${column((s) => s.attempt.statusCode)}::int[], ${column((s) => s.attempt.outcome)}::text[], ${column((s) => s.attempt.responseExcerpt)}::text[], ${column((s) => Math.round(s.attempt.latencyMs))}::int[], ${column((s) => s.attempt.error)}::text[])
           WITH ORDINALITY AS i(id, status, attempt, next_attempt_at, delivered_at, failed_at, last_error, fallback_due,
                                health, failure_reason, at, status_code, outcome, response_excerpt, latency_ms, error, ord)
       ), settled AS (
         UPDATE notification_deliveries d
            SET status = i.status, attempts = i.attempt, next_attempt_at = coalesce(i.next_attempt_at, d.next_attempt_at),
                delivered_at = i.delivered_at, failed_at = i.failed_at, last_error = coalesce(i.last_error, d.last_error),
                lease_owner = NULL, lease_until = NULL, fallback_due = i.fallback_due
           FROM input i
          WHERE d.id = i.id AND d.lease_owner = ${owner} AND d.status = 'pending'
          RETURNING d.id, d.channel_id, d.outbox_id, d.event, d.status, d.delivered_at, d.dedup_key
       ), moves AS (
         SELECT s.channel_id, i.ord, i.health, i.at, i.failure_reason,
                max(i.ord) FILTER (WHERE i.health = 'delivered') OVER (PARTITION BY s.channel_id) AS last_delivered
           FROM settled s JOIN input i ON i.id = s.id
          WHERE s.channel_id IS NOT NULL AND i.health IS NOT NULL
       ), streaks AS (
         SELECT channel_id, max(last_delivered) AS last_delivered,
                count(*) FILTER (WHERE health = 'failed' AND ord > coalesce(last_delivered, 0))::int AS failed_since,
                (array_agg(at ORDER BY ord DESC) FILTER (WHERE health = 'delivered'))[1] AS success_at,
                (array_agg(at ORDER BY ord DESC) FILTER (WHERE health = 'failed'))[1] AS failure_at,
                (array_agg(failure_reason ORDER BY ord DESC) FILTER (WHERE health = 'failed'))[1] AS failure_reason
           FROM moves GROUP BY channel_id
       ), health AS (
         UPDATE notification_channels c
            SET consecutive_failures = CASE WHEN s.last_delivered IS NULL THEN c.consecutive_failures ELSE 0 END + s.failed_since,
                last_success_at = coalesce(s.success_at, c.last_success_at),
                last_failure_at = coalesce(s.failure_at, c.last_failure_at),
                last_failure_reason = CASE WHEN s.failure_at IS NULL THEN c.last_failure_reason ELSE s.failure_reason END,
                failing_since = CASE WHEN s.last_delivered IS NULL THEN c.failing_since ELSE NULL END
           FROM streaks s WHERE c.id = s.channel_id
       )${raw(this.settleFollowUps.map((ctes) => `, ${ctes}`).join(''))}
       , attempted AS (INSERT INTO notification_delivery_attempts (delivery_id, attempt, at, status_code, outcome, response_excerpt, latency_ms, error)
       SELECT i.id, i.attempt, i.at, i.status_code, i.outcome, i.response_excerpt, i.latency_ms, i.error
         FROM settled s JOIN input i ON i.id = s.id
       RETURNING delivery_id, attempt, at, status_code, outcome)${deliveryAttemptsLiveEvents('attempted')}
       SELECT a.delivery_id::text AS delivery_id FROM attempted a CROSS JOIN live_told`,
      { prepare: true },
    );
    return new Set(rows.map((row) => row.delivery_id));
  }

  list(
    scope: TenantScope,
    filter: DeliveryFilter,
    page: { offset: number; limit: number },
  ): Promise<{ items: DeliveryRecord[]; total: number }> {
    return listDeliveries(this.sql, scope, filter, page);
  }
}
