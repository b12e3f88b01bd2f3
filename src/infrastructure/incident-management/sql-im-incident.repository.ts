import { AppError } from '../../domain/shared/app-error';
import {
  ImIncident,
  type ImIncidentStatus,
  type ImSeverity,
  type ImTimelineEntry,
  type ImTimelineKind,
} from '../../domain/incident-management/im-incident';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type {
  ImIncidentFilter,
  ImIncidentReads,
  ImIncidentRepository,
  ImPage,
  StoredImTimelineEntry,
} from '../../application/incident-management/ports';
import type { SqlRunner } from '../persistence/database';
import { join, raw, sql, type Sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

type Time = Date | string;
export interface IncidentRow {
  id: number;
  public_id: string;
  organization_id: number;
  title: string;
  description: string | null;
  severity: ImSeverity;
  source: string | null;
  status: ImIncidentStatus;
  team_id: string | null;
  customer_id: number | null;
  escalation_policy_id: string | null;
  dedup_key: string;
  snoozed_until: Time | null;
  occurrence_count: number;
  last_occurrence_at: Time;
  acknowledged_at: Time | null;
  acknowledged_by_user_id: string | null;
  resolved_at: Time | null;
  resolved_by_user_id: string | null;
  merged_into_id: string | null;
  created_by_user_id: string | null;
  created_at: Time;
  updated_at: Time;
  version: number;
  origin_monitor_id: string | null;
  origin_incident_id: string | null;
}

export const COLUMNS = `id, public_id, organization_id, title, description, severity, source, status, team_id, customer_id,
  escalation_policy_id, dedup_key, snoozed_until, occurrence_count, last_occurrence_at, acknowledged_at, acknowledged_by_user_id,
  resolved_at, resolved_by_user_id, merged_into_id, created_by_user_id, created_at, updated_at, version, origin_monitor_id, origin_incident_id`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const date = (value: Time | null) => (value === null ? null : new Date(value));

export function toIncident(row: IncidentRow): ImIncident {
  const incident = new ImIncident({
    publicId: row.public_id,
    organizationId: Number(row.organization_id),
    title: row.title,
    description: row.description,
    severity: row.severity,
    source: row.source,
    teamId: row.team_id,
    customerId: row.customer_id === null ? null : Number(row.customer_id),
    escalationPolicyId: row.escalation_policy_id,
    dedupKey: row.dedup_key,
    createdByUserId: row.created_by_user_id,
    now: new Date(row.created_at),
  });
  Object.assign(incident, {
    id: Number(row.id),
    status: row.status,
    snoozedUntil: date(row.snoozed_until),
    occurrenceCount: Number(row.occurrence_count),
    lastOccurrenceAt: new Date(row.last_occurrence_at),
    acknowledgedAt: date(row.acknowledged_at),
    acknowledgedByUserId: row.acknowledged_by_user_id,
    resolvedAt: date(row.resolved_at),
    resolvedByUserId: row.resolved_by_user_id,
    mergedIntoId: row.merged_into_id,
    updatedAt: new Date(row.updated_at),
    version: Number(row.version),
    monitorOrigin:
      row.origin_monitor_id && row.origin_incident_id ? { monitorId: row.origin_monitor_id, incidentId: row.origin_incident_id } : null,
  });
  return incident;
}

/**
 * IM incidents in plain SQL: `add` and `save` run on the caller's transaction (`tx`) when given, else
 * on the current unit of work; the timeline rows commit with the change. Every statement names the organization.
 */
export class SqlImIncidentRepository implements ImIncidentRepository {
  constructor(private readonly sql: SqlRunner) {}

  readsIn(tx: Transaction): ImIncidentReads {
    return new SqlImIncidentRepository(sqlOf(tx));
  }

  async add(scope: TenantScope, incident: ImIncident, tx: Transaction): Promise<ImIncident> {
    const [row] = await sqlOf(tx).query<{ id: number }>(
      sql`INSERT INTO im_incidents (public_id, organization_id, title, description, severity, source, status, team_id, customer_id,
         escalation_policy_id, dedup_key, snoozed_until, occurrence_count, last_occurrence_at, created_by_user_id, created_at,
         updated_at, origin_monitor_id, origin_incident_id, version)
       VALUES (${this.insertValues(scope, incident)}, 1) RETURNING id`,
    );
    incident.id = Number(row!.id);
    await this.writeTimeline(incident, tx);
    return incident;
  }

  async findByRef(scope: TenantScope, ref: string): Promise<ImIncident | null> {
    if (!UUID.test(ref)) return null;
    const rows = await this.sql.query<IncidentRow>(
      sql`SELECT ${raw(COLUMNS)} FROM im_incidents WHERE organization_id = ${scope.organizationId} AND public_id = ${ref.toLowerCase()}`,
    );
    return rows[0] ? toIncident(rows[0]) : null;
  }

  async findOpenByDedupKey(scope: TenantScope, dedupKey: string): Promise<ImIncident | null> {
    const rows = await this.sql.query<IncidentRow>(
      sql`SELECT ${raw(COLUMNS)} FROM im_incidents
        WHERE organization_id = ${scope.organizationId} AND dedup_key = ${dedupKey} AND status IN ('triggered', 'acknowledged')`,
    );
    return rows[0] ? toIncident(rows[0]) : null;
  }

  async findOpenByOrigin(scope: TenantScope, monitorIncidentId: string): Promise<ImIncident | null> {
    if (!UUID.test(monitorIncidentId)) return null;
    const rows = await this.sql.query<IncidentRow>(
      sql`SELECT ${raw(COLUMNS)} FROM im_incidents
        WHERE organization_id = ${scope.organizationId} AND status IN ('triggered', 'acknowledged')
          AND id IN (SELECT im_incident_id FROM im_incident_monitor_origins WHERE organization_id = ${scope.organizationId} AND incident_public_id = ${monitorIncidentId.toLowerCase()})`,
    );
    return rows[0] ? toIncident(rows[0]) : null;
  }

  async list(scope: TenantScope, filter: ImIncidentFilter, page: ImPage): Promise<{ items: ImIncident[]; total: number }> {
    const where: Sql[] = [sql`organization_id = ${scope.organizationId}`];
    if (filter.statuses?.length) where.push(sql`status IN (${join(filter.statuses, ', ')})`);
    if (filter.teamId !== undefined) where.push(sql`team_id = ${filter.teamId}`);
    if (filter.customerId !== undefined) where.push(sql`customer_id = ${filter.customerId}`);
    if (filter.since) where.push(sql`created_at >= ${filter.since}`);
    if (filter.until) where.push(sql`created_at < ${filter.until}`);
    const condition = join(where, ' AND ');
    const rows = await this.sql.query<IncidentRow & { total: string }>(
      sql`SELECT ${raw(COLUMNS)}, count(*) OVER () AS total FROM im_incidents WHERE ${condition}
        ORDER BY created_at DESC, id DESC LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
    );
    let total = rows[0] ? Number(rows[0].total) : 0;
    if (rows.length === 0 && page.page > 1) {
      const [count] = await this.sql.query<{ n: string }>(sql`SELECT count(*) AS n FROM im_incidents WHERE ${condition}`);
      total = Number(count?.n ?? 0);
    }
    return { items: rows.map(toIncident), total };
  }

  async save(scope: TenantScope, incident: ImIncident, tx: Transaction): Promise<void> {
    const rows = await sqlOf(tx)
      .query(sql`UPDATE im_incidents SET status = ${incident.status}, snoozed_until = ${incident.snoozedUntil}, occurrence_count = occurrence_count + ${this.mergedOccurrences(incident)}, acknowledged_at = ${incident.acknowledgedAt},
         acknowledged_by_user_id = ${incident.acknowledgedByUserId}, resolved_at = ${incident.resolvedAt}, resolved_by_user_id = ${incident.resolvedByUserId}, merged_into_id = ${incident.mergedIntoId}, updated_at = ${incident.updatedAt}, version = version + 1
       WHERE id = ${incident.id} AND organization_id = ${scope.organizationId} AND version = ${incident.version} RETURNING version`);
    if (rows.length === 0) throw new AppError('imIncidentStatusConflict');
    incident.version += 1;
    await this.writeTimeline(incident, tx);
  }

  async timeline(scope: TenantScope, incident: ImIncident): Promise<StoredImTimelineEntry[]> {
    const rows = await this.sql.query<{
      id: string;
      kind: ImTimelineKind;
      at: Time;
      actor_user_id: string | null;
      details: unknown;
    }>(sql`SELECT t.id, t.kind, t.at, t.actor_user_id, t.details FROM im_incident_timeline t
         JOIN im_incidents i ON i.id = t.incident_id
        WHERE i.organization_id = ${scope.organizationId} AND t.incident_id = ${incident.id} ORDER BY t.id`);
    return rows.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      at: new Date(row.at),
      actorUserId: row.actor_user_id,
      details: (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as Record<string, unknown>,
    }));
  }

  async triggerOrOccur(scope: TenantScope, candidate: ImIncident, occurrence: Record<string, unknown>, tx: Transaction) {
    // One statement decides, under the partial unique index: a new incident, or one more
    // occurrence of the open one (occurrences move neither its status nor its version). The same
    // statement writes the timeline entries of whichever happened, so an event is one round trip
    // and atomic; it runs on the caller's transaction (`tx`), so it commits with the caller's other writes.
    const entries = (list: readonly ImTimelineEntry[]) =>
      JSON.stringify(
        list.map((e) => ({
          kind: e.kind,
          at: e.at.toISOString(),
          actor_user_id: e.actorUserId,
          details: e.details,
        })),
      );
    const created = candidate.pending.splice(0);
    const occurred: ImTimelineEntry[] = [{ kind: 'occurrence', at: candidate.createdAt, actorUserId: null, details: occurrence }];
    const [row] = await sqlOf(tx).query<IncidentRow & { inserted: boolean }>(
      sql`WITH upserted AS (
         INSERT INTO im_incidents (public_id, organization_id, title, description, severity, source, status, team_id, customer_id,
           escalation_policy_id, dedup_key, snoozed_until, occurrence_count, last_occurrence_at, created_by_user_id, created_at,
           updated_at, origin_monitor_id, origin_incident_id, version)
         VALUES (${this.insertValues(scope, candidate)}, 1)
         ON CONFLICT (organization_id, dedup_key) WHERE status IN ('triggered', 'acknowledged')
         DO UPDATE SET occurrence_count = im_incidents.occurrence_count + 1,
           last_occurrence_at = GREATEST(im_incidents.last_occurrence_at, EXCLUDED.last_occurrence_at)
         RETURNING ${raw(COLUMNS)}, (xmax = 0) AS inserted
       ), timeline AS (
         INSERT INTO im_incident_timeline (incident_id, kind, at, actor_user_id, details)
         SELECT u.id, e.kind, e.at, e.actor_user_id, e.details
           FROM upserted u,
                jsonb_to_recordset(CASE WHEN u.inserted THEN ${entries(created)}::jsonb ELSE ${entries(occurred)}::jsonb END)
                  AS e(kind text, at timestamptz, actor_user_id uuid, details jsonb)
       )
       SELECT * FROM upserted`,
    );
    return { incident: toIncident(row!), created: Boolean(row!.inserted) };
  }

  /** The values of a new incident's row, in the INSERT's column order. */
  private insertValues(scope: TenantScope, incident: ImIncident): Sql {
    return join(
      [
        incident.publicId,
        scope.organizationId,
        incident.title,
        incident.description,
        incident.severity,
        incident.source,
        incident.status,
        incident.teamId,
        incident.customerId,
        incident.escalationPolicyId,
        incident.dedupKey,
        incident.snoozedUntil,
        incident.occurrenceCount,
        incident.lastOccurrenceAt,
        incident.createdByUserId,
        incident.createdAt,
        incident.updatedAt,
        incident.monitorOrigin?.monitorId ?? null,
        incident.monitorOrigin?.incidentId ?? null,
      ],
      ', ',
    );
  }

  /** Occurrences taken over by a merge are added to the stored count (which occurrences may have moved meanwhile). */
  private mergedOccurrences(incident: ImIncident): number {
    return incident.pending.filter((e) => e.kind === 'merged').reduce((sum, e) => sum + Number(e.details.occurrences ?? 0), 0);
  }

  private async writeTimeline(incident: ImIncident, tx: Transaction): Promise<void> {
    const entries: ImTimelineEntry[] = incident.pending.splice(0);
    if (entries.length === 0) return;
    await sqlOf(tx).query(sql`INSERT INTO im_incident_timeline (incident_id, kind, at, actor_user_id, details)
       SELECT ${incident.id}, e.kind, e.at, e.actor_user_id, e.details
         FROM jsonb_to_recordset(${JSON.stringify(entries.map((e) => ({ kind: e.kind, at: e.at.toISOString(), actor_user_id: e.actorUserId, details: e.details })))}::jsonb) AS e(kind text, at timestamptz, actor_user_id uuid, details jsonb)`);
  }
}
