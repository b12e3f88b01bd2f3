import type { NotificationMessage } from '../../domain/notifications/notification-message';
import { DIGEST_EVENT } from '../../domain/notifications/channel-events';
import { CALM, type CustomerStorm } from '../../domain/notifications/storm-digest';
import type { DeliveryTarget, DueStorm, StoredStorm, StormLedger, StormRoute } from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import type { OutboxRow, RefusedEvents } from '../event-catalogue/published-events';
import { relayedEventsOf } from './relayed-events';
import { warnRefused } from '../event-catalogue/refused';
import { sql } from '../persistence/sql';

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
  /** `refused`: told of held rows the event decoder refuses (left held, out of the digest). */
  constructor(
    private readonly sql: SqlRunner,
    private readonly refused: RefusedEvents = warnRefused,
  ) {}

  async storm(organizationId: number, customerId: number): Promise<StoredStorm> {
    const [stored] = await this.stormsOf([{ organizationId, customerId }]);
    return stored!;
  }

  async stormsOf(customers: readonly { organizationId: number; customerId: number }[]): Promise<StoredStorm[]> {
    if (customers.length === 0) return [];
    const rows = await this.sql.query<StormRow>(sql`SELECT s.organization_id, s.customer_id, s.state, s.version
         FROM unnest(${customers.map((c) => c.organizationId)}::int[], ${customers.map((c) => c.customerId)}::int[]) AS k(organization_id, customer_id)
         JOIN notification_storms s ON s.organization_id = k.organization_id AND s.customer_id = k.customer_id`);
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
    const [row] = await this.sql.query<{ written: number }>(sql`WITH input AS (
         SELECT * FROM unnest(${routes.map((r) => r.event.id)}::bigint[], ${routes.map((r) => r.decision)}::text[], ${routes.map((r) => r.event.monitorId)}::bigint[], ${routes.map((r) => r.event.incidentId)}::text[], ${routes.map((r) => r.message.event)}::text[], ${routes.map((r) => JSON.stringify(r.message))}::text[])
           AS e(outbox_id, decision, monitor_id, incident_id, event, payload)
       ), claim AS (
         SELECT id FROM notification_outbox WHERE id IN (SELECT outbox_id FROM input) AND routed_at IS NULL FOR UPDATE
       ), whole AS (
         SELECT count(*) = ${routes.length}::int AS ok FROM claim
       ), created AS (
         INSERT INTO notification_storms (organization_id, customer_id, state, version, due_at)
         SELECT ${organizationId}, ${customerId}, ${JSON.stringify(next)}::jsonb, 1, ${dueAt}::timestamptz FROM whole WHERE whole.ok AND ${version}::int = 0
         ON CONFLICT (organization_id, customer_id) DO NOTHING
         RETURNING 1 AS ok
       ), updated AS (
         UPDATE notification_storms SET state = ${JSON.stringify(next)}::jsonb, version = version + 1, due_at = ${dueAt}::timestamptz
          WHERE organization_id = ${organizationId} AND customer_id = ${customerId} AND version = ${version}::int AND ${version}::int > 0 AND (SELECT ok FROM whole)
         RETURNING 1 AS ok
       ), written AS (
         SELECT ok FROM created UNION ALL SELECT ok FROM updated
       ), marked AS (
         UPDATE notification_outbox o SET routed_at = ${at}, delivered_at = coalesce(o.delivered_at, ${at}),
                held_until = CASE WHEN input.decision = 'held' THEN ${at}::timestamptz END,
                held_kind = CASE WHEN input.decision = 'held' THEN input.event END
           FROM input WHERE o.id = input.outbox_id AND EXISTS (SELECT 1 FROM written)
         RETURNING o.id, o.organization_id, input.decision
       ), inserted AS (
         INSERT INTO notification_deliveries
           (organization_id, outbox_id, channel_id, channel_public_id, channel_type, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
         SELECT marked.organization_id, marked.id, ch.id, ch.public_id, ch.type, ${customerId}::int, input.monitor_id, input.incident_id,
                input.event, input.payload::jsonb, ${at}, ${at}
           FROM unnest(${channels.map((c) => c.outboxId)}::bigint[], ${channels.map((c) => c.id)}::int[], ${channels.map((c) => c.publicId)}::uuid[], ${channels.map((c) => c.type)}::text[]) AS ch(outbox_id, id, public_id, type)
           JOIN marked ON marked.id = ch.outbox_id AND marked.decision = 'alone'
           JOIN input ON input.outbox_id = ch.outbox_id
         ON CONFLICT (outbox_id, channel_public_id) DO NOTHING
       )
       SELECT count(*)::int AS written FROM written`);
    return (row?.written ?? 0) > 0;
  }

  async dueStorms(now: Date, limit: number): Promise<DueStorm[]> {
    const storms = await this.sql.query<StormRow>(sql`WITH due AS (
         SELECT organization_id, customer_id, state, version FROM notification_storms WHERE due_at <= ${now} ORDER BY due_at LIMIT ${limit}
       )
       SELECT due.*, c.name AS customer_name FROM due LEFT JOIN customers c ON c.id = due.customer_id AND c.organization_id = due.organization_id`);
    if (storms.length === 0) return [];
    const held = await this.sql.query<HeldRow>(sql`SELECT o.id, o.organization_id, o.kind, o.payload, o.held_kind, k.customer_id
         FROM unnest(${storms.map((s) => s.organization_id)}::int[], ${storms.map((s) => s.customer_id)}::int[]) AS k(organization_id, customer_id)
         JOIN notification_outbox o ON o.organization_id = k.organization_id AND (o.payload->>'customerId')::int = k.customer_id
        WHERE o.held_until IS NOT NULL AND o.digest_id IS NULL
        ORDER BY o.id`);
    const read = relayedEventsOf(held, this.refused);
    return storms.map((s) => ({
      organizationId: s.organization_id,
      customerId: s.customer_id,
      customerName: s.customer_name ?? `customer ${s.customer_id}`,
      state: s.state,
      version: s.version,
      held: read
        .filter(({ row }) => row.organization_id === s.organization_id && row.customer_id === s.customer_id)
        .map(({ row, event }) => ({ ...event, heldKind: row.held_kind })),
    }));
  }

  async nextDueAt(): Promise<Date | null> {
    const [row] = await this.sql.query<{ due: Date | null }>(
      sql`SELECT min(due_at) AS due FROM notification_storms WHERE due_at IS NOT NULL`,
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
    const [row] = await this.sql.query<{ written: number }>(sql`WITH claim AS (
         SELECT id FROM notification_outbox WHERE id = ANY(${ids}::bigint[]) AND digest_id IS NULL FOR UPDATE
       ), whole AS (
         SELECT count(*) = ${ids.length}::int AS ok FROM claim
       ), storm AS (
         UPDATE notification_storms SET state = ${JSON.stringify(next)}::jsonb, version = version + 1, due_at = ${dueAt}::timestamptz
          WHERE organization_id = ${storm.organizationId} AND customer_id = ${storm.customerId} AND version = ${storm.version}::int AND (SELECT ok FROM whole)
         RETURNING organization_id
       ), event AS (
         INSERT INTO notification_outbox (organization_id, kind, payload, subject, body, routed_at, delivered_at)
         SELECT organization_id, 'incidentDigest', ${JSON.stringify(payload)}::jsonb, ${summary}, ${summary}, ${at}, ${at} FROM storm
         RETURNING id, organization_id
       ), marked AS (
         UPDATE notification_outbox o SET digest_id = event.id FROM event WHERE o.id IN (SELECT id FROM claim) RETURNING o.id
       ), inserted AS (
         INSERT INTO notification_deliveries
           (organization_id, outbox_id, channel_id, channel_public_id, channel_type, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
         SELECT event.organization_id, event.id, ch.id, ch.public_id, ch.type, ${storm.customerId}, NULL, NULL, ${DIGEST_EVENT}, ch.payload::jsonb, ${at}, ${at}
           FROM event, unnest(${deliveries.map((d) => d.channel.id)}::int[], ${deliveries.map((d) => d.channel.publicId)}::uuid[], ${deliveries.map((d) => d.channel.type)}::text[], ${deliveries.map((d) => JSON.stringify(d.message))}::text[]) AS ch(id, public_id, type, payload)
       )
       SELECT count(*)::int AS written FROM storm`);
    return (row?.written ?? 0) > 0;
  }
}
