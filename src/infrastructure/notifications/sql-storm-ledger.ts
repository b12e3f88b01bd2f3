import type { NotificationMessage } from '../../domain/notifications/notification-message';
import { DIGEST_EVENT } from '../../domain/notifications/channel-events';
import { CALM, type CustomerStorm } from '../../domain/notifications/storm-digest';
import type { DeliveryTarget, DueStorm, StoredStorm, StormLedger, StormRoute } from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import { outboxEventOf, type OutboxRow } from './sql-delivery-ledger';

interface StormRow {
  organization_id: number;
  customer_id: number;
  state: CustomerStorm;
  version: number;
  customer_name: string | null;
}
interface HeldRow extends OutboxRow {
  held_kind: string;
  customer_id: number;
}

/**
 * Customers' storms in PostgreSQL (notification_storms: the domain's state as JSON and a version).
 * Each write is one statement: it locks the events it routes (or tells), goes ahead only if it got
 * all of them still unrouted (untold) and the storm row is still at the version read (a new row:
 * inserted only if none exists), and then writes the storm, the events' marks and the deliveries.
 * A concurrent writer therefore makes the other's statement write nothing.
 */
export class SqlStormLedger implements StormLedger {
  constructor(private readonly sql: SqlRunner) {}

  async storm(organizationId: number, customerId: number): Promise<StoredStorm> {
    const [stored] = await this.stormsOf([{ organizationId, customerId }]);
    return stored!;
  }

  async stormsOf(customers: readonly { organizationId: number; customerId: number }[]): Promise<StoredStorm[]> {
    if (customers.length === 0) return [];
    const rows = await this.sql.query<StormRow>(
      `SELECT s.organization_id, s.customer_id, s.state, s.version
         FROM unnest(?::int[], ?::int[]) AS k(organization_id, customer_id)
         JOIN notification_storms s ON s.organization_id = k.organization_id AND s.customer_id = k.customer_id`,
      [customers.map((c) => c.organizationId), customers.map((c) => c.customerId)],
    );
    const found = new Map(rows.map((row) => [`${row.organization_id}/${row.customer_id}`, { state: row.state, version: row.version }]));
    return customers.map((c) => found.get(`${c.organizationId}/${c.customerId}`) ?? { state: CALM, version: 0 });
  }

  async route(
    organizationId: number,
    customerId: number,
    version: number,
    next: CustomerStorm,
    dueAt: Date | null,
    routes: readonly StormRoute[],
    at: Date,
  ): Promise<boolean> {
    const channels = routes.filter((r) => r.decision === 'alone').flatMap((r) => r.channels.map((c) => ({ outboxId: r.event.id, ...c })));
    const [row] = await this.sql.query<{ written: number }>(
      `WITH input AS (
         SELECT * FROM unnest(?::bigint[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[])
           AS e(outbox_id, decision, monitor_id, incident_id, event, payload)
       ), claim AS (
         SELECT id FROM notification_outbox WHERE id IN (SELECT outbox_id FROM input) AND routed_at IS NULL FOR UPDATE
       ), whole AS (
         SELECT count(*) = ?::int AS ok FROM claim
       ), created AS (
         INSERT INTO notification_storms (organization_id, customer_id, state, version, due_at)
         SELECT ?, ?, ?::jsonb, 1, ?::timestamptz FROM whole WHERE whole.ok AND ?::int = 0
         ON CONFLICT (organization_id, customer_id) DO NOTHING
         RETURNING 1 AS ok
       ), updated AS (
         UPDATE notification_storms SET state = ?::jsonb, version = version + 1, due_at = ?::timestamptz
          WHERE organization_id = ? AND customer_id = ? AND version = ?::int AND ?::int > 0 AND (SELECT ok FROM whole)
         RETURNING 1 AS ok
       ), written AS (
         SELECT ok FROM created UNION ALL SELECT ok FROM updated
       ), marked AS (
         UPDATE notification_outbox o SET routed_at = ?, delivered_at = coalesce(o.delivered_at, ?),
                held_until = CASE WHEN input.decision = 'held' THEN ?::timestamptz END,
                held_kind = CASE WHEN input.decision = 'held' THEN input.event END
           FROM input WHERE o.id = input.outbox_id AND EXISTS (SELECT 1 FROM written)
         RETURNING o.id, o.organization_id, input.decision
       ), inserted AS (
         INSERT INTO notification_deliveries
           (organization_id, outbox_id, channel_id, channel_public_id, channel_type, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
         SELECT marked.organization_id, marked.id, ch.id, ch.public_id, ch.type, ?::int, input.monitor_id, input.incident_id,
                input.event, input.payload::jsonb, ?, ?
           FROM unnest(?::bigint[], ?::int[], ?::uuid[], ?::text[]) AS ch(outbox_id, id, public_id, type)
           JOIN marked ON marked.id = ch.outbox_id AND marked.decision = 'alone'
           JOIN input ON input.outbox_id = ch.outbox_id
         ON CONFLICT (outbox_id, channel_public_id) DO NOTHING
       )
       SELECT count(*)::int AS written FROM written`,
      [
        routes.map((r) => r.event.id),
        routes.map((r) => r.decision),
        routes.map((r) => r.event.monitorId),
        routes.map((r) => r.event.incidentId),
        routes.map((r) => r.message.event),
        routes.map((r) => JSON.stringify(r.message)),
        routes.length,
        organizationId,
        customerId,
        JSON.stringify(next),
        dueAt,
        version,
        JSON.stringify(next),
        dueAt,
        organizationId,
        customerId,
        version,
        version,
        at,
        at,
        at,
        customerId,
        at,
        at,
        channels.map((c) => c.outboxId),
        channels.map((c) => c.id),
        channels.map((c) => c.publicId),
        channels.map((c) => c.type),
      ],
    );
    return (row?.written ?? 0) > 0;
  }

  async dueStorms(now: Date, limit: number): Promise<DueStorm[]> {
    const storms = await this.sql.query<StormRow>(
      `WITH due AS (
         SELECT organization_id, customer_id, state, version FROM notification_storms WHERE due_at <= ? ORDER BY due_at LIMIT ?
       )
       SELECT due.*, c.name AS customer_name FROM due LEFT JOIN customers c ON c.id = due.customer_id AND c.organization_id = due.organization_id`,
      [now, limit],
    );
    if (storms.length === 0) return [];
    const held = await this.sql.query<HeldRow>(
      `SELECT o.id, o.organization_id, o.kind, o.payload, o.held_kind, k.customer_id
         FROM unnest(?::int[], ?::int[]) AS k(organization_id, customer_id)
         JOIN notification_outbox o ON o.organization_id = k.organization_id AND (o.payload->>'customerId')::int = k.customer_id
        WHERE o.held_until IS NOT NULL AND o.digest_id IS NULL
        ORDER BY o.id`,
      [storms.map((s) => s.organization_id), storms.map((s) => s.customer_id)],
    );
    return storms.map((s) => ({
      organizationId: s.organization_id,
      customerId: s.customer_id,
      customerName: s.customer_name ?? `customer ${s.customer_id}`,
      state: s.state,
      version: s.version,
      held: held
        .filter((h) => h.organization_id === s.organization_id && h.customer_id === s.customer_id)
        .map((h) => ({ ...outboxEventOf(h), heldKind: h.held_kind })),
    }));
  }

  async nextDueAt(): Promise<Date | null> {
    const [row] = await this.sql.query<{ due: Date | null }>(
      'SELECT min(due_at) AS due FROM notification_storms WHERE due_at IS NOT NULL',
      [],
      { prepare: true },
    );
    return row?.due ?? null;
  }

  async tell(
    storm: DueStorm,
    next: CustomerStorm,
    dueAt: Date | null,
    deliveries: readonly { channel: DeliveryTarget; message: Omit<NotificationMessage, 'id'> }[],
    at: Date,
  ): Promise<boolean> {
    const ids = storm.held.map((e) => e.id);
    const stage = deliveries[0]?.message.data.stage ?? null;
    const summary = `storm of customer ${storm.customerId}: ${ids.length} held events told${stage === null ? '' : ` (${String(stage)})`}`;
    const payload = {
      kind: 'incidentDigest',
      organizationId: storm.organizationId,
      customerId: storm.customerId,
      monitorId: null,
      incidentId: null,
      occurredAt: at.toISOString(),
      summary,
      data: { stage, count: ids.length, outboxIds: ids },
    };
    const [row] = await this.sql.query<{ written: number }>(
      `WITH claim AS (
         SELECT id FROM notification_outbox WHERE id = ANY(?::bigint[]) AND digest_id IS NULL FOR UPDATE
       ), whole AS (
         SELECT count(*) = ?::int AS ok FROM claim
       ), storm AS (
         UPDATE notification_storms SET state = ?::jsonb, version = version + 1, due_at = ?::timestamptz
          WHERE organization_id = ? AND customer_id = ? AND version = ?::int AND (SELECT ok FROM whole)
         RETURNING organization_id
       ), event AS (
         INSERT INTO notification_outbox (organization_id, kind, payload, subject, body, routed_at, delivered_at)
         SELECT organization_id, 'incidentDigest', ?::jsonb, ?, ?, ?, ? FROM storm
         RETURNING id, organization_id
       ), marked AS (
         UPDATE notification_outbox o SET digest_id = event.id FROM event WHERE o.id IN (SELECT id FROM claim) RETURNING o.id
       ), inserted AS (
         INSERT INTO notification_deliveries
           (organization_id, outbox_id, channel_id, channel_public_id, channel_type, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
         SELECT event.organization_id, event.id, ch.id, ch.public_id, ch.type, ?, NULL, NULL, ?, ch.payload::jsonb, ?, ?
           FROM event, unnest(?::int[], ?::uuid[], ?::text[], ?::text[]) AS ch(id, public_id, type, payload)
       )
       SELECT count(*)::int AS written FROM storm`,
      [
        ids,
        ids.length,
        JSON.stringify(next),
        dueAt,
        storm.organizationId,
        storm.customerId,
        storm.version,
        JSON.stringify(payload),
        summary,
        summary,
        at,
        at,
        storm.customerId,
        DIGEST_EVENT,
        at,
        at,
        deliveries.map((d) => d.channel.id),
        deliveries.map((d) => d.channel.publicId),
        deliveries.map((d) => d.channel.type),
        deliveries.map((d) => JSON.stringify(d.message)),
      ],
    );
    return (row?.written ?? 0) > 0;
  }
}
