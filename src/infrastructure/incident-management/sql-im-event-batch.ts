import type { ImIncident, ImTimelineEntry } from '../../domain/incident-management/im-incident';
import type { ImDedupRef, ImEventBatchChanges, ImEventBatchStore } from '../../application/incident-management/ports';
import type { Transaction, TransactionRunner } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { sqlOf } from '../persistence/sql-transaction';
import { COLUMNS, toIncident, type IncidentRow } from './sql-im-incident.repository';
import { empty, join, raw, sql } from '../persistence/sql';

/** The advisory-lock class of event batches' dedup keys (two-int keys: a space apart from bigint locks). */
const LOCK_CLASS = 0x494d4576; // 'IMEv'

/**
 * The batch's keys locked in one order (so two batches never wait on each other in a cycle), one
 * statement. Transaction-scoped: released by the commit. Only the locked attempt takes them.
 */
const lockKeys = (
  organizations: number[],
  dedupKeys: string[],
) => sql`SELECT count(pg_advisory_xact_lock(${raw(String(LOCK_CLASS))}, k)) AS locked
  FROM (SELECT DISTINCT hashtext(o::text || ':' || d) AS k FROM unnest(${organizations}::int[], ${dedupKeys}::text[]) AS u(o, d) ORDER BY k) s`;

/**
 * The open incidents of the batch's keys, each with the version of its row (`xmin`) the write is
 * guarded by and its place (`ctid`) to lock it by. One lookup of the open-key index per key (a
 * lateral join driven by the keys), whatever the planner believes of the table: a semi-join let it
 * hash every open incident of the table for each batch while its statistics still said the table
 * was small (3 ms a batch at 5,000 open incidents, the largest part of PostgreSQL's work per event).
 * Its `LIMIT 1` (a key has at most one open incident: the unique index) keeps the lookup a subquery
 * run per key: without it the planner flattens it into a join, and hashes every open incident again.
 */
export const openIncidentsOfKeys = (organizations: number[], dedupKeys: string[]) => sql`SELECT i.*
  FROM unnest(${organizations}::int[], ${dedupKeys}::text[]) AS u(o, d)
  CROSS JOIN LATERAL (SELECT ${raw(COLUMNS)}, xmin::text AS row_version, ctid::text AS row_place FROM im_incidents
    WHERE organization_id = u.o AND dedup_key = u.d AND status IN ('triggered', 'acknowledged') LIMIT 1) i`;

/**
 * Locks the rows at `places` in id order, the order every batch takes the incidents it changes in,
 * so two batches changing the same incidents wait for each other rather than deadlock (locking them
 * in the keys' order deadlocked with a concurrent batch's write). By place (a TID scan): no index for
 * the planner to choose. Answers the versions locked (a row changed since it was read is locked at
 * its newest version, or left out).
 */
export const lockInIdOrder = (places: string[]) =>
  sql`SELECT id, xmin::text AS row_version FROM im_incidents WHERE ctid = ANY(${places}::tid[]) ORDER BY id FOR UPDATE`;

/**
 * One statement writes a batch's decisions: the new incidents (their final state), the changed ones
 * (status, acknowledgement, resolution, occurrences, version: written only where the row is still the
 * version read, so the values decided are written as they are), and every
 * timeline entry in the batch's order, attached to the new incidents by their public ids. When a changed incident's row
 * is no longer the version read (another writer got there first), the statement fails as a whole (40001) and writes nothing.
 * A batch that opens no incident (or changes none) leaves that part out: no insert into im_incidents, so none of its
 * statement triggers runs (at most six texts, each prepared once per connection).
 *
 * Every batch takes the incidents it changes in id order, so two batches changing the same
 * incidents wait for each other rather than deadlock: the locked attempt by its read
 * (`openIncidentsOfKeys`), the unlocked one (`lockChanged`) by locking them here first, in that
 * order, before its update (whose own order is the plan's).
 */
const write = ({ created, updated, entries, changed, changedPlaces, lockChanged }: WriteParams) => {
  const opens = created !== '[]';
  const parts = [];
  if (opens) {
    parts.push(sql`created AS (
    INSERT INTO im_incidents (public_id, organization_id, title, description, severity, source, status, team_id, customer_id,
      escalation_policy_id, dedup_key, snoozed_until, occurrence_count, last_occurrence_at, acknowledged_at, acknowledged_by_user_id,
      resolved_at, resolved_by_user_id, created_by_user_id, created_at, updated_at, version)
    SELECT n.public_id, n.organization_id, n.title, n.description, n.severity, n.source, n.status, n.team_id, n.customer_id,
      n.escalation_policy_id, n.dedup_key, n.snoozed_until, n.occurrence_count, n.last_occurrence_at, n.acknowledged_at,
      n.acknowledged_by_user_id, n.resolved_at, n.resolved_by_user_id, n.created_by_user_id, n.created_at, n.updated_at, n.version
      FROM jsonb_to_recordset(${created}::jsonb) AS n(seq int, public_id uuid, organization_id int, title text, description text, severity text,
        source text, status text, team_id text, customer_id int, escalation_policy_id text, dedup_key text, snoozed_until timestamptz,
        occurrence_count int, last_occurrence_at timestamptz, acknowledged_at timestamptz, acknowledged_by_user_id uuid,
        resolved_at timestamptz, resolved_by_user_id uuid, created_by_user_id uuid, created_at timestamptz, updated_at timestamptz, version int)
     ORDER BY n.seq
    RETURNING id, public_id
  )`);
  }
  if (changed > 0 && lockChanged) {
    parts.push(sql`locked AS MATERIALIZED (${lockInIdOrder(changedPlaces)})`);
  }
  if (changed > 0) {
    parts.push(sql`updated AS (
    UPDATE im_incidents i SET status = u.status, occurrence_count = u.occurrence_count,
        last_occurrence_at = GREATEST(i.last_occurrence_at, u.last_occurrence_at), snoozed_until = u.snoozed_until,
        acknowledged_at = u.acknowledged_at, acknowledged_by_user_id = u.acknowledged_by_user_id, resolved_at = u.resolved_at,
        resolved_by_user_id = u.resolved_by_user_id, updated_at = u.updated_at,
        version = u.version
      FROM jsonb_to_recordset(${updated}::jsonb) AS u(id int, organization_id int, status text, occurrence_count int,
        last_occurrence_at timestamptz, snoozed_until timestamptz, acknowledged_at timestamptz, acknowledged_by_user_id uuid,
        resolved_at timestamptz, resolved_by_user_id uuid, updated_at timestamptz, version int, row_version text)
      ${lockChanged ? raw('JOIN locked l ON l.id = u.id') : empty}
     WHERE i.id = u.id AND i.organization_id = u.organization_id AND i.xmin = u.row_version::xid
    RETURNING i.id
  )`);
  }
  parts.push(sql`timeline AS (
    INSERT INTO im_incident_timeline (incident_id, kind, at, actor_user_id, details)
    SELECT ${opens ? raw('COALESCE(e.incident_id, c.id)') : raw('e.incident_id')}, e.kind, e.at, e.actor_user_id, e.details
      FROM jsonb_to_recordset(${entries}::jsonb) AS e(seq int, incident_id int, public_id uuid, kind text, at timestamptz, actor_user_id uuid,
        details jsonb)
      ${opens ? raw('LEFT JOIN created c ON c.public_id = e.public_id') : empty}
     ORDER BY e.seq
    RETURNING 1
  )`);
  const stale =
    changed > 0 ? sql`CASE WHEN (SELECT count(*) FROM updated) <> ${changed}::int THEN im_event_batch_stale() END` : raw('NULL');
  return sql`WITH ${join(parts, ', ')} SELECT (SELECT count(*) FROM timeline) AS entries, ${stale} AS stale`;
};

/** PostgreSQL's answer to an insert the unique index of open dedup keys refused; retrying the batch re-reads. */
const UNIQUE_VIOLATION = '23505';
/** A changed incident was no longer the version read (im_event_batch_stale). */
const STALE = '40001';
const DEADLOCK = '40P01';
/** Attempts without locks before the batch takes its keys' locks. */
const OPTIMISTIC_ATTEMPTS = 2;
/** Attempts with the locks (only an incident opened by another path, or a deadlock, makes one fail). */
const LOCKED_ATTEMPTS = 3;

const retryable = (error: unknown, codes: readonly string[]) => codes.includes((error as { code?: string }).code ?? '');

/**
 * Event batches in two statements on the plain SQL pool, each its own transaction: the open incidents
 * of the batch's keys read (with their rows' versions), the domain's decisions written by one
 * set-based statement that changes an incident only if its row is still the version read, and
 * opens one only if no incident with its key was opened meanwhile (the unique index of open dedup
 * keys). A batch that lost such a race (a stale version, a key opened meanwhile, or a deadlock with
 * another batch's statement) is read and decided again; after OPTIMISTIC_ATTEMPTS it runs
 * in the TransactionRunner's transaction with its keys locked and its incidents read FOR UPDATE, so
 * a key every batch wants (a storm of one alert) makes progress by waiting, not by failing.
 */
export class SqlImEventBatchStore implements ImEventBatchStore {
  constructor(
    private readonly sql: SqlRunner,
    private readonly transactions: TransactionRunner,
  ) {}

  async commit<T>(keys: readonly ImDedupRef[], decide: (open: ImIncident[]) => { changes: ImEventBatchChanges; result: T }): Promise<T> {
    for (let attempt = 1; attempt <= OPTIMISTIC_ATTEMPTS; attempt++) {
      try {
        return await this.once(this.sql, keys, decide, false);
      } catch (error) {
        // A deadlock between two such statements (their new incidents' unique keys taken in
        // different orders) is a lost race too: PostgreSQL rolled this statement back whole.
        if (!retryable(error, [STALE, UNIQUE_VIOLATION, DEADLOCK])) throw error;
      }
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transactions.run((tx) => this.once(sqlOf(tx), keys, decide, true));
      } catch (error) {
        if (attempt >= LOCKED_ATTEMPTS || !retryable(error, [STALE, UNIQUE_VIOLATION, DEADLOCK])) throw error;
      }
    }
  }

  /** The locked attempt alone, in the caller's transaction (the decider's round: its intake entries removed by the same commit). */
  commitIn<T>(
    tx: Transaction,
    keys: readonly ImDedupRef[],
    decide: (open: ImIncident[]) => { changes: ImEventBatchChanges; result: T },
  ): Promise<T> {
    return this.once(sqlOf(tx), keys, decide, true);
  }

  private async once<T>(
    runner: SqlRunner,
    keys: readonly ImDedupRef[],
    decide: (open: ImIncident[]) => { changes: ImEventBatchChanges; result: T },
    locked: boolean,
  ): Promise<T> {
    const organizations = keys.map((k) => k.organizationId);
    const dedupKeys = keys.map((k) => k.dedupKey);
    if (locked) await runner.query(lockKeys(organizations, dedupKeys), { prepare: true });
    const rows = locked ? await this.readLocked(runner, organizations, dedupKeys) : await this.read(runner, organizations, dedupKeys);
    const versions = new Map(rows.map((row) => [Number(row.id), { version: row.row_version, place: row.row_place }]));
    const { changes, result } = decide(rows.map(toIncident));
    const params = writeParams(changes, versions, !locked);
    // Nothing decided (acknowledgements and resolutions of keys with no open incident): nothing to write.
    if (params.entries !== '[]' || params.changed > 0 || params.created !== '[]') await runner.query(write(params), { prepare: true });
    return result;
  }

  private read(runner: SqlRunner, organizations: number[], dedupKeys: string[]) {
    return runner.query<OpenRow>(openIncidentsOfKeys(organizations, dedupKeys), { prepare: true });
  }

  /**
   * The open incidents read, then locked in id order. A row changed between the two (its newest
   * version locked, or none) is read again: the rows locked cannot change any more, so this ends
   * unless other writers keep opening incidents of the batch's keys (then STALE: the batch again).
   */
  private async readLocked(runner: SqlRunner, organizations: number[], dedupKeys: string[]): Promise<OpenRow[]> {
    for (let attempt = 1; ; attempt++) {
      const rows = await this.read(runner, organizations, dedupKeys);
      if (rows.length === 0) return rows;
      const locked = await runner.query<{ id: number; row_version: string }>(lockInIdOrder(rows.map((row) => row.row_place)), {
        prepare: true,
      });
      const lockedVersions = new Map(locked.map((row) => [Number(row.id), row.row_version]));
      if (rows.every((row) => lockedVersions.get(Number(row.id)) === row.row_version)) return rows;
      if (attempt >= LOCKED_READS) throw Object.assign(new Error('open incidents kept changing while being locked'), { code: STALE });
    }
  }
}

type OpenRow = IncidentRow & { row_version: string; row_place: string };

/** Reads of a locked attempt whose rows changed before they were locked, before it gives up (STALE). */
const LOCKED_READS = 3;

interface WriteParams {
  created: string;
  updated: string;
  entries: string;
  changed: number;
  /** Where the changed incidents' rows were read (their `ctid`). */
  changedPlaces: string[];
  /** Lock the changed incidents (in id order) before updating them: the unlocked attempt, whose read locked none. */
  lockChanged: boolean;
}

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

function writeParams(
  { created, updated }: ImEventBatchChanges,
  versions: ReadonlyMap<number, { version: string; place: string }>,
  lockChanged: boolean,
): WriteParams {
  let seq = 0;
  const entries: unknown[] = [];
  const entriesOf = (incident: ImIncident, ref: { incident_id: number | null; public_id: string | null }) => {
    for (const e of incident.pending.splice(0) as ImTimelineEntry[]) {
      entries.push({ seq: seq++, ...ref, kind: e.kind, at: e.at.toISOString(), actor_user_id: e.actorUserId, details: e.details });
    }
  };
  const newRows = created.map((i, n) => {
    entriesOf(i, { incident_id: null, public_id: i.publicId });
    return {
      seq: n,
      public_id: i.publicId,
      organization_id: i.organizationId,
      title: i.title,
      description: i.description,
      severity: i.severity,
      source: i.source,
      status: i.status,
      team_id: i.teamId,
      customer_id: i.customerId,
      escalation_policy_id: i.escalationPolicyId,
      dedup_key: i.dedupKey,
      snoozed_until: iso(i.snoozedUntil),
      occurrence_count: i.occurrenceCount,
      last_occurrence_at: iso(i.lastOccurrenceAt),
      acknowledged_at: iso(i.acknowledgedAt),
      acknowledged_by_user_id: i.acknowledgedByUserId,
      resolved_at: iso(i.resolvedAt),
      resolved_by_user_id: i.resolvedByUserId,
      created_by_user_id: i.createdByUserId,
      created_at: iso(i.createdAt),
      updated_at: iso(i.updatedAt),
      version: i.version,
    };
  });
  const changedRows = updated.map((i) => {
    entriesOf(i, { incident_id: i.id, public_id: null });
    return {
      id: i.id,
      organization_id: i.organizationId,
      status: i.status,
      occurrence_count: i.occurrenceCount,
      last_occurrence_at: iso(i.lastOccurrenceAt),
      snoozed_until: iso(i.snoozedUntil),
      acknowledged_at: iso(i.acknowledgedAt),
      acknowledged_by_user_id: i.acknowledgedByUserId,
      resolved_at: iso(i.resolvedAt),
      resolved_by_user_id: i.resolvedByUserId,
      updated_at: iso(i.updatedAt),
      version: i.version,
      row_version: versions.get(i.id)?.version ?? null,
    };
  });
  return {
    created: JSON.stringify(newRows),
    updated: JSON.stringify(changedRows),
    entries: JSON.stringify(entries),
    changed: changedRows.length,
    changedPlaces: updated.map((i) => versions.get(i.id)?.place ?? '(0,0)'),
    lockChanged,
  };
}
