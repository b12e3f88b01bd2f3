import type { ImIncident, ImTimelineEntry } from '../../domain/incident-management/im-incident';
import type { ImDedupRef, ImEventBatchChanges, ImEventBatchStore } from '../../application/incident-management/ports';
import type { SqlRunner, SqlTransactions } from '../persistence/database';
import { COLUMNS, toIncident, type IncidentRow } from './sql-im-incident.repository';
import { raw, sql } from '../persistence/sql';

/** The advisory-lock class of event batches' dedup keys (two-int keys: a space apart from bigint locks). */
const LOCK_CLASS = 0x494d4576; // 'IMEv'

/**
 * The batch's keys locked in one order (so two batches never wait on each other in a cycle), one
 * statement. Transaction-scoped: released by the commit.
 */
const lockKeys = (
  organizations: number[],
  dedupKeys: string[],
) => sql`SELECT count(pg_advisory_xact_lock(${raw(String(LOCK_CLASS))}, k)) AS locked
  FROM (SELECT DISTINCT hashtext(o::text || ':' || d) AS k FROM unnest(${organizations}::int[], ${dedupKeys}::text[]) AS u(o, d) ORDER BY k) s`;

const readOpen = (organizations: number[], dedupKeys: string[]) => sql`SELECT ${raw(COLUMNS)} FROM im_incidents
  WHERE (organization_id, dedup_key) IN (SELECT o, d FROM unnest(${organizations}::int[], ${dedupKeys}::text[]) AS u(o, d))
    AND status IN ('triggered', 'acknowledged')
  FOR UPDATE`;

/**
 * One statement writes a batch's decisions: the new incidents (their final state), the changed ones
 * (status, acknowledgement, resolution, occurrences, version: the rows are locked since they were
 * read, so the values decided are written as they are), and every timeline entry in the batch's order, attached to the new
 * incidents by their public ids.
 */
const write = ([created, updated, entries]: [string, string, string]) => sql`WITH created AS (
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
  ), updated AS (
    UPDATE im_incidents i SET status = u.status, occurrence_count = u.occurrence_count,
        last_occurrence_at = GREATEST(i.last_occurrence_at, u.last_occurrence_at), snoozed_until = u.snoozed_until,
        acknowledged_at = u.acknowledged_at, acknowledged_by_user_id = u.acknowledged_by_user_id, resolved_at = u.resolved_at,
        resolved_by_user_id = u.resolved_by_user_id, updated_at = u.updated_at,
        version = u.version
      FROM jsonb_to_recordset(${updated}::jsonb) AS u(id int, organization_id int, status text, occurrence_count int,
        last_occurrence_at timestamptz, snoozed_until timestamptz, acknowledged_at timestamptz, acknowledged_by_user_id uuid,
        resolved_at timestamptz, resolved_by_user_id uuid, updated_at timestamptz, version int)
     WHERE i.id = u.id AND i.organization_id = u.organization_id
    RETURNING i.id
  ), timeline AS (
    INSERT INTO im_incident_timeline (incident_id, kind, at, actor_user_id, details)
    SELECT COALESCE(e.incident_id, c.id), e.kind, e.at, e.actor_user_id, e.details
      FROM jsonb_to_recordset(${entries}::jsonb) AS e(seq int, incident_id int, public_id uuid, kind text, at timestamptz, actor_user_id uuid,
        details jsonb)
      LEFT JOIN created c ON c.public_id = e.public_id
     ORDER BY e.seq
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM created) AS created, (SELECT count(*) FROM updated) AS updated, (SELECT count(*) FROM timeline) AS entries`;

/** PostgreSQL's answer to an insert the unique index of open dedup keys refused; retrying the batch re-reads. */
const UNIQUE_VIOLATION = '23505';
const DEADLOCK = '40P01';
const ATTEMPTS = 3;

/**
 * Event batches in one transaction on the plain SQL pool: the keys locked, their open incidents
 * read and locked, the domain's decisions written by one set-based statement, committed. Four
 * round trips a batch (BEGIN and COMMIT included), however many events it holds.
 */
export class SqlImEventBatchStore implements ImEventBatchStore {
  constructor(private readonly transactions: SqlTransactions) {}

  async commit<T>(keys: readonly ImDedupRef[], decide: (open: ImIncident[]) => { changes: ImEventBatchChanges; result: T }): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transactions.run((runner) => this.once(runner, keys, decide));
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt >= ATTEMPTS || (code !== UNIQUE_VIOLATION && code !== DEADLOCK)) throw error;
      }
    }
  }

  private async once<T>(
    runner: SqlRunner,
    keys: readonly ImDedupRef[],
    decide: (open: ImIncident[]) => { changes: ImEventBatchChanges; result: T },
  ): Promise<T> {
    const organizations = keys.map((k) => k.organizationId);
    const dedupKeys = keys.map((k) => k.dedupKey);
    await runner.query(lockKeys(organizations, dedupKeys), { prepare: true });
    const rows = await runner.query<IncidentRow>(readOpen(organizations, dedupKeys), { prepare: true });
    const { changes, result } = decide(rows.map(toIncident));
    await runner.query(write(writeParams(changes)), { prepare: true });
    return result;
  }
}

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

function writeParams({ created, updated }: ImEventBatchChanges): [string, string, string] {
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
    };
  });
  return [JSON.stringify(newRows), JSON.stringify(changedRows), JSON.stringify(entries)];
}
