import { LIVE_EVENT_CATALOGUE, type LiveEventFieldName, type LiveEventKind } from '../../domain/live-events/catalogue';
import type { Transaction } from '../../application/shared/transaction';
import { join, raw, sql, type Sql } from '../persistence/sql';
import { SqlTransaction, type CommitStage } from '../persistence/sql-transaction';

/**
 * How the live event log (live_events, read by GET /api/events) is appended: the writers of a change
 * (the outbox publisher for the incidents' events, the alert states, a monitor's status, a posted
 * update, a delivery attempt) stage a notice of it in their transaction; the notices are written at
 * the end of that transaction, just before its COMMIT, as one statement that takes the log's lock
 * (a transaction-level advisory lock, held until the commit is done), so ids are given in commit
 * order and `id > Last-Event-ID` resumes without gaps. Each kind's payload is built field by field
 * from the catalogue (domain/live-events/catalogue.ts): the compiler refuses a field missing or unknown.
 */
export type LiveEventNotice =
  | { readonly kind: 'monitor.stateChanged'; readonly monitorId: number }
  | { readonly kind: 'incident.opened' | 'incident.acknowledged' | 'incident.resolved'; readonly incidentPublicId: string }
  | { readonly kind: 'incident.updated'; readonly incidentId: number; readonly at: Date };

/** The lock every append takes (held to the commit): ids in commit order. */
export const LIVE_EVENT_LOCK = 4747001;

/** A kind's payload as SQL: one expression per field of the catalogue, in its order (`jsonb_build_object`). */
export function payloadSql<K extends LiveEventKind>(kind: K, fields: { readonly [F in LiveEventFieldName<K>]: Sql }): Sql {
  const names = Object.keys(LIVE_EVENT_CATALOGUE[kind].fields) as LiveEventFieldName<K>[];
  return sql`jsonb_build_object(${join(
    names.map((name) => sql`${raw(`'${name}'`)}, ${fields[name]}`),
    ', ',
  )})`;
}

/** A monitor's state as the API's currentState tells it (m: monitors, a: its monitor_alert_states row or nulls). */
const MONITOR_STATE = sql`CASE WHEN m.status = 'paused' THEN 'paused' WHEN a.monitor_id IS NULL THEN 'unknown'
  WHEN a.open_incident_id IS NOT NULL THEN 'down' WHEN a.undecided_since IS NOT NULL THEN 'unknown' ELSE 'up' END`;

const INCIDENT_STATUS = { 'incident.opened': 'open', 'incident.acknowledged': 'acknowledged', 'incident.resolved': 'resolved' } as const;

type Notice<K extends LiveEventKind> = Extract<LiveEventNotice, { kind: K }>;

/**
 * Where each staged kind reads its payload: `ref` is what the notice stores (one JSON array per
 * event, `r.e`), `rows` the SELECT (organization_id, customer_id, data) over `r(e, n)`.
 */
const SOURCES: {
  readonly [K in LiveEventNotice['kind']]: { ref(notice: Notice<K>): unknown[]; rows(kind: K, refs: Sql): Sql };
} = {
  'monitor.stateChanged': {
    ref: (n) => [n.monitorId],
    rows: (kind, refs) =>
      sql`SELECT r.n, m.organization_id, m.customer_id, ${payloadSql(kind, {
        monitorId: sql`m.public_id`,
        kind: sql`m.kind`,
        name: sql`m.name`,
        state: MONITOR_STATE,
        at: sql`now()`,
      })} AS data FROM ${refs} JOIN monitors m ON m.id = (r.e->>0)::bigint LEFT JOIN monitor_alert_states a ON a.monitor_id = m.id`,
  },
  ...incidentSources(),
  'incident.updated': {
    ref: (n) => [n.incidentId, n.at.toISOString()],
    rows: (kind, refs) =>
      sql`SELECT r.n, i.organization_id, i.customer_id, ${payloadSql(kind, {
        incidentId: sql`i.public_id`,
        monitorId: sql`m.public_id`,
        status: sql`i.status`,
        title: sql`i.title`,
        origin: sql`i.origin`,
        at: sql`(r.e->>1)::timestamptz`,
      })} AS data FROM ${refs} JOIN incidents i ON i.id = (r.e->>0)::bigint LEFT JOIN monitors m ON m.id = i.monitor_id`,
  },
};

function incidentSources() {
  type IncidentKind = keyof typeof INCIDENT_STATUS;
  const source = {
    ref: (n: Notice<IncidentKind>) => [n.incidentPublicId],
    rows: (kind: IncidentKind, refs: Sql) =>
      sql`SELECT r.n, i.organization_id, i.customer_id, ${payloadSql(kind, {
        incidentId: sql`i.public_id`,
        monitorId: sql`m.public_id`,
        status: sql`${INCIDENT_STATUS[kind]}::text`,
        title: sql`i.title`,
        origin: sql`i.origin`,
        at: sql`now()`,
      })} AS data FROM ${refs} JOIN incidents i ON i.public_id = (r.e->>0)::uuid LEFT JOIN monitors m ON m.id = i.monitor_id`,
  };
  return { 'incident.opened': source, 'incident.acknowledged': source, 'incident.resolved': source };
}

/**
 * The statement that appends notices: the rows built (consecutive notices of one kind read
 * together), then the lock, then the rows inserted in the order staged, then a notice on channel
 * `live_events` per organization (PostgreSQL folds equal notices of one transaction into one).
 */
export function liveEventsInsert(notices: readonly LiveEventNotice[]): Sql {
  const runs: { kind: LiveEventNotice['kind']; refs: unknown[][] }[] = [];
  for (const notice of notices) {
    const source = SOURCES[notice.kind] as { ref(n: LiveEventNotice): unknown[] };
    const last = runs.at(-1);
    if (last?.kind === notice.kind) last.refs.push(source.ref(notice));
    else runs.push({ kind: notice.kind, refs: [source.ref(notice)] });
  }
  const selects = runs.map(({ kind, refs }, g) => {
    const from = sql`jsonb_array_elements(${JSON.stringify(refs)}::jsonb) WITH ORDINALITY AS r(e, n)`;
    const rows = (SOURCES[kind] as { rows(k: LiveEventKind, refs: Sql): Sql }).rows(kind, from);
    return sql`SELECT ${g}::int AS g, s.n, ${kind}::text AS kind, s.organization_id, s.customer_id, s.data FROM (${rows}) s`;
  });
  // The rows are read and built before the lock (counting them makes the lock wait for all of
  // them): only the insert and the commit run under it, so a concurrent append waits for those alone.
  return sql`WITH e AS MATERIALIZED (${join(selects, ' UNION ALL ')}),
    locked AS (SELECT pg_advisory_xact_lock(${LIVE_EVENT_LOCK}::bigint) AS l FROM (SELECT count(*) FROM e) built),
    appended AS (INSERT INTO live_events (organization_id, customer_id, kind, data)
      SELECT e.organization_id, e.customer_id, e.kind, e.data FROM e, locked ORDER BY e.g, e.n
      RETURNING organization_id)
    SELECT pg_notify('live_events', o::text) FROM (SELECT DISTINCT organization_id AS o FROM appended) t`;
}

/** Writes staged notices at the end of a transaction. */
const LIVE_EVENTS_STAGE: CommitStage<LiveEventNotice> = {
  write: async (run, notices) => {
    await run.query(liveEventsInsert(notices));
  },
};

/** Appends live events in the caller's transaction: staged to its end (written just before its COMMIT). */
export async function appendLiveEvents(tx: Transaction, notices: readonly LiveEventNotice[]): Promise<void> {
  if (notices.length === 0) return;
  if (!(tx instanceof SqlTransaction)) throw new TypeError('A transaction handle comes from the TransactionRunner');
  tx.stage(LIVE_EVENTS_STAGE, notices);
}

/**
 * The delivery attempts' live events, as steps of the statement that records the attempts
 * (`attempted`: its CTE answering delivery_id, attempt, at, status_code, outcome): in the
 * delivery's channel's scope (a direct message's: its customer's). The statement ends with
 * `... FROM attempted CROSS JOIN live_told` so the notice is sent.
 */
export function deliveryAttemptsLiveEvents(attempted: 'attempted'): Sql {
  return sql`, live_locked AS (SELECT pg_advisory_xact_lock(${LIVE_EVENT_LOCK}::bigint) AS l),
    live_appended AS (INSERT INTO live_events (organization_id, customer_id, kind, data)
      SELECT d.organization_id, CASE WHEN d.channel_public_id IS NULL THEN d.customer_id ELSE d.channel_customer_id END,
             ${'notification.deliveryAttempted'}::text, ${payloadSql('notification.deliveryAttempted', {
               deliveryId: sql`t.delivery_id`,
               channelId: sql`d.channel_public_id`,
               channelType: sql`d.channel_type`,
               event: sql`d.event`,
               incidentId: sql`d.incident_id`,
               attempt: sql`t.attempt`,
               outcome: sql`t.outcome`,
               statusCode: sql`t.status_code`,
               at: sql`t.at`,
             })}
        FROM ${raw(attempted)} t JOIN notification_deliveries d ON d.id = t.delivery_id, live_locked
       ORDER BY t.at, t.delivery_id
      RETURNING organization_id),
    live_told AS (SELECT count(pg_notify('live_events', o::text)) AS told FROM (SELECT DISTINCT organization_id AS o FROM live_appended) x)`;
}
