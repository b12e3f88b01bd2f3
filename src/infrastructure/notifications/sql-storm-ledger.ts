import type { NotificationMessage } from '../../domain/notifications/notification-message';
import { DIGEST_EVENT } from '../../domain/notifications/channel-events';
import { CALM, type CustomerStorm } from '../../domain/notifications/storm-digest';
import type {
  DeliveryTarget,
  DueStorm,
  KnownHeld,
  StoredStorm,
  StormLedger,
  StormRoute,
  StormTell,
  StormWrite,
} from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import type { OutboxRow, RefusedEvents } from '../event-catalogue/published-events';
import { relayedEventsOf } from './relayed-events';
import { channelCustomerOf } from './sql-delivery-records';
import { warnRefused } from '../event-catalogue/refused';
import { sql } from '../persistence/sql';

interface StormRow {
  organization_id: number;
  customer_id: number;
  state: CustomerStorm;
  version: number;
  told_version: number;
  customer_name: string | null;
}
interface HeldRow extends OutboxRow {
  held_kind: string;
  customer_id: number;
}

/**
 * Customers' storms in PostgreSQL (notification_storms: the domain's state as JSON and a version).
 * Each write is one statement (a round's storms one for all), guarded on the version read: a
 * concurrent writer makes the other's write of that storm nothing.
 *
 * Routing goes ahead for a customer only if all the events it routes are still unrouted in its
 * statement's snapshot and its storm row is still at the version read (a new row: inserted only if
 * none exists), and writes the storm, the events' marks and the deliveries. The storm's row is the
 * one lock: every router of a customer's events writes its storm, so of two routers only one moves
 * it from the version both read, and one that read it after the other's commit sees that commit's
 * events routed (its snapshot is later still). A held event is marked with
 * its customer and the storm's version after that write (`held_version`). Telling moves the storm's
 * `told_version` to its own version: the held events still untold are those above it, so a digest
 * of 10,000 failures writes its storm's row, not 10,000 events' rows. A storm read at a version and
 * still at it when told has held exactly the events read after it (each holding bumps the version).
 */
export class SqlStormLedger implements StormLedger {
  /** `refused`: told of held rows the event decoder refuses (out of the digest, which still marks them told). */
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
    const [written] = await this.routeAll([{ organizationId, customerId, version, next, dueAt, routes }], at);
    return written!;
  }

  /**
   * One statement for the round: the customers' rows (`c`, by index) and their events (`input`,
   * the message only of those sent alone: a held or absorbed event's is not delivered);
   * it keeps the customers whose events are all still unrouted (`whole`), locks their storms in
   * one order (two routers never wait on each other crosswise), writes each one's storm if still at
   * the version read (inserted when read as none), and marks and delivers the events of the storms
   * written. No event is locked before its mark: the storm's version decides.
   */
  async routeAll(writes: readonly StormWrite[], at: Date): Promise<boolean[]> {
    if (writes.length === 0) return [];
    const events = writes.flatMap((w, idx) => w.routes.map((r) => ({ idx, r })));
    const channels = events
      .filter(({ r }) => r.decision === 'alone')
      .flatMap(({ r }) => r.channels.map((c) => ({ outboxId: r.event.id, ...c })));
    const rows = await this.sql.query<{ idx: number }>(sql`WITH c AS (
         SELECT * FROM unnest(${writes.map((_, i) => i)}::int[], ${writes.map((w) => w.organizationId)}::int[], ${writes.map((w) => w.customerId)}::int[], ${writes.map((w) => w.version)}::int[], ${writes.map((w) => JSON.stringify(w.next))}::text[], ${writes.map((w) => w.dueAt?.toISOString() ?? null)}::text[], ${writes.map((w) => w.routes.length)}::int[])
           AS c(idx, organization_id, customer_id, version, state, due_at, n)
       ), input AS (
         SELECT * FROM unnest(${events.map((e) => e.idx)}::int[], ${events.map((e) => e.r.event.id)}::bigint[], ${events.map((e) => e.r.decision)}::text[], ${events.map((e) => e.r.event.monitorId)}::bigint[], ${events.map((e) => e.r.event.incidentId)}::text[], ${events.map((e) => e.r.message.event)}::text[], ${events.map((e) => (e.r.decision === 'alone' ? JSON.stringify(e.r.message) : null))}::text[])
           AS e(idx, outbox_id, decision, monitor_id, incident_id, event, payload)
       ), unrouted AS (
         SELECT input.idx, count(*)::int AS n FROM input JOIN notification_outbox o ON o.id = input.outbox_id AND o.routed_at IS NULL GROUP BY input.idx
       ), whole AS (
         SELECT c.* FROM c LEFT JOIN unrouted ON unrouted.idx = c.idx WHERE coalesce(unrouted.n, 0) = c.n
       ), locked AS (
         SELECT count(*) AS n FROM (
           SELECT 1 FROM notification_storms s JOIN whole ON s.organization_id = whole.organization_id AND s.customer_id = whole.customer_id
            WHERE whole.version > 0 ORDER BY s.organization_id, s.customer_id FOR UPDATE OF s) l
       ), created AS (
         INSERT INTO notification_storms (organization_id, customer_id, state, version, due_at)
         SELECT organization_id, customer_id, state::jsonb, 1, due_at::timestamptz FROM whole, locked WHERE version = 0
          ORDER BY organization_id, customer_id
         ON CONFLICT (organization_id, customer_id) DO NOTHING
         RETURNING organization_id, customer_id, version
       ), updated AS (
         UPDATE notification_storms s SET state = whole.state::jsonb, version = s.version + 1, due_at = whole.due_at::timestamptz
           FROM whole, locked
          WHERE s.organization_id = whole.organization_id AND s.customer_id = whole.customer_id AND s.version = whole.version AND whole.version > 0
         RETURNING s.organization_id, s.customer_id, s.version
       ), written AS (
         SELECT c.idx, c.customer_id, w.version FROM c
           JOIN (SELECT * FROM created UNION ALL SELECT * FROM updated) w ON w.organization_id = c.organization_id AND w.customer_id = c.customer_id
       ), marked AS (
         UPDATE notification_outbox o SET routed_at = ${at}, delivered_at = coalesce(o.delivered_at, ${at}),
                held_until = CASE WHEN input.decision = 'held' THEN ${at}::timestamptz END,
                held_kind = CASE WHEN input.decision = 'held' THEN input.event END,
                held_customer_id = CASE WHEN input.decision = 'held' THEN written.customer_id END,
                held_version = CASE WHEN input.decision = 'held' THEN written.version END
           FROM input JOIN written ON written.idx = input.idx
          WHERE o.id = input.outbox_id AND o.routed_at IS NULL
         RETURNING o.id, o.organization_id, input.decision, written.customer_id
       ), inserted AS (
         INSERT INTO notification_deliveries
           (organization_id, outbox_id, channel_id, channel_public_id, channel_type, channel_customer_id, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
         SELECT marked.organization_id, marked.id, ch.id, ch.public_id, ch.type, ${channelCustomerOf('ch.id')}, marked.customer_id, input.monitor_id, input.incident_id,
                input.event, input.payload::jsonb, ${at}, ${at}
           FROM unnest(${channels.map((c) => c.outboxId)}::bigint[], ${channels.map((c) => c.id)}::int[], ${channels.map((c) => c.publicId)}::uuid[], ${channels.map((c) => c.type)}::text[]) AS ch(outbox_id, id, public_id, type)
           JOIN marked ON marked.id = ch.outbox_id AND marked.decision = 'alone'
           JOIN input ON input.outbox_id = ch.outbox_id
         ON CONFLICT (outbox_id, channel_public_id) DO NOTHING
       )
       SELECT idx FROM written`);
    const written = new Set(rows.map((row) => row.idx));
    return writes.map((_, i) => written.has(i));
  }

  async dueStorms(now: Date, limit: number, known: KnownHeld = () => undefined): Promise<DueStorm[]> {
    const storms = await this.sql.query<StormRow & { due_at: Date }>(sql`WITH due AS (
         SELECT organization_id, customer_id, state, version, told_version, due_at FROM notification_storms WHERE due_at <= ${now} ORDER BY due_at LIMIT ${limit}
       )
       SELECT due.*, c.name AS customer_name FROM due LEFT JOIN customers c ON c.id = due.customer_id AND c.organization_id = due.organization_id
        ORDER BY due.due_at`);
    const key = (organizationId: number, customerId: number) => `${organizationId}/${customerId}`;
    // What was read before for each storm: still held unless it was told since (its told version above it).
    const heldBy = new Map<string, DueStorm['held'][number][]>();
    const reads: { organizationId: number; customerId: number; after: number; version: number }[] = [];
    for (const s of storms) {
      const before = known({ organizationId: s.organization_id, customerId: s.customer_id });
      const usable = before !== undefined && before.version >= s.told_version && before.version <= s.version;
      heldBy.set(key(s.organization_id, s.customer_id), usable ? [...before.held] : []);
      const after = usable ? before.version : s.told_version;
      if (after < s.version) reads.push({ organizationId: s.organization_id, customerId: s.customer_id, after, version: s.version });
    }
    if (reads.length > 0) {
      // Read after the storms, up to the version read: a storm still at it when told held exactly these.
      const held = await this.sql.query<HeldRow>(sql`SELECT o.id, o.organization_id, o.kind, o.payload, o.held_kind, k.customer_id
           FROM unnest(${reads.map((r) => r.organizationId)}::int[], ${reads.map((r) => r.customerId)}::int[],
                       ${reads.map((r) => r.after)}::int[], ${reads.map((r) => r.version)}::int[])
             AS k(organization_id, customer_id, after_version, version)
           JOIN notification_outbox o
             ON o.organization_id = k.organization_id AND o.held_customer_id = k.customer_id
            AND o.held_version > k.after_version AND o.held_version <= k.version
          WHERE o.held_until IS NOT NULL
          ORDER BY o.id`);
      for (const { row, event } of relayedEventsOf(held, this.refused)) {
        heldBy.get(key(row.organization_id, row.customer_id))?.push({ ...event, heldKind: row.held_kind });
      }
      // Oldest first, the ones read before and now together.
      for (const r of reads) heldBy.get(key(r.organizationId, r.customerId))!.sort((a, b) => a.id - b.id);
    }
    return storms.map((s) => ({
      organizationId: s.organization_id,
      customerId: s.customer_id,
      customerName: s.customer_name ?? `customer ${s.customer_id}`,
      state: s.state,
      version: s.version,
      dueAt: new Date(s.due_at),
      held: heldBy.get(key(s.organization_id, s.customer_id)) ?? [],
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
    const [written] = await this.tellAll([{ storm, next, dueAt, deliveries }], at);
    return written!;
  }

  /**
   * One statement for the round's due storms (`t`, by index): it moves each one still at the
   * version read, marking its held events told (`told_version`), and writes its message (one outbox
   * event, routed, found again by its organization and customer) with a delivery per channel.
   */
  async tellAll(tells: readonly StormTell[], at: Date): Promise<boolean[]> {
    if (tells.length === 0) return [];
    // The storms and their deliveries each as one JSON document (read with jsonb_to_recordset): a
    // digest lists up to 500 incidents, which as elements of text arrays the driver would escape.
    const storms = tells.map(({ storm, next, dueAt, deliveries }, idx) => {
      const count = storm.held.length;
      const stage = deliveries[0]?.message.data.stage ?? null;
      const summary = `storm of customer ${storm.customerId}: ${count} held events told${stage === null ? '' : ` (${String(stage)})`}`;
      const payload = {
        kind: 'incidentDigest',
        organizationId: storm.organizationId,
        customerId: storm.customerId,
        monitorId: null,
        incidentId: null,
        occurredAt: at.toISOString(),
        summary,
        data: { stage, count },
      };
      const { organizationId, customerId, version } = storm;
      return { idx, organizationId, customerId, version, state: next, dueAt: dueAt?.toISOString() ?? null, payload, summary };
    });
    const deliveries = tells.flatMap(({ deliveries: list }, idx) =>
      list.map(({ channel, message }) => ({ idx, id: channel.id, publicId: channel.publicId, type: channel.type, payload: message })),
    );
    const rows = await this.sql.query<{ idx: number }>(sql`WITH t AS (
         SELECT * FROM jsonb_to_recordset(${JSON.stringify(storms)}::jsonb)
           AS t(idx int, "organizationId" int, "customerId" int, version int, state jsonb, "dueAt" timestamptz, payload jsonb, summary text)
       ), storm AS (
         UPDATE notification_storms s
            SET state = t.state, version = s.version + 1, told_version = s.version + 1, due_at = t."dueAt"
           FROM t
          WHERE s.organization_id = t."organizationId" AND s.customer_id = t."customerId" AND s.version = t.version
         RETURNING t.idx, s.organization_id, t.payload, t.summary
       ), event AS (
         INSERT INTO notification_outbox (organization_id, kind, payload, subject, body, routed_at, delivered_at)
         SELECT organization_id, 'incidentDigest', payload, summary, summary, ${at}, ${at} FROM storm
         RETURNING id, organization_id, (payload->>'customerId')::int AS customer_id
       ), told AS (
         SELECT storm.idx, event.id, event.organization_id, event.customer_id FROM storm
           JOIN t ON t.idx = storm.idx
           JOIN event ON event.organization_id = t."organizationId" AND event.customer_id = t."customerId"
       ), inserted AS (
         INSERT INTO notification_deliveries
           (organization_id, outbox_id, channel_id, channel_public_id, channel_type, channel_customer_id, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
         SELECT told.organization_id, told.id, d.id, d."publicId", d.type, ${channelCustomerOf('d.id')}, told.customer_id, NULL, NULL, ${DIGEST_EVENT}, d.payload, ${at}, ${at}
           FROM jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb) AS d(idx int, id int, "publicId" uuid, type text, payload jsonb)
           JOIN told ON told.idx = d.idx
       )
       SELECT idx FROM storm`);
    const written = new Set(rows.map((row) => row.idx));
    return tells.map((_, i) => written.has(i));
  }
}
