import type { IncidentFilter, IncidentRepository } from '../../application/incidents/ports';
import { Incident, type IncidentOrigin, type IncidentStatus } from '../../domain/incidents/incident';
import { TimelineEntry } from '../../domain/incidents/timeline-entry';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { SqlRunner } from '../persistence/database';
import type { Transaction } from '../../application/shared/transaction';
import { racing, versionSaved } from '../persistence/optimistic';
import { sqlOf } from '../persistence/sql-transaction';
import { appendLiveEvents } from '../live-events/live-event-append';
import { empty, join, raw, sql, type Sql } from '../persistence/sql';

interface IncidentRow {
  id: number;
  public_id: string;
  organization_id: number;
  customer_id: number;
  monitor_id: string;
  origin: IncidentOrigin;
  status: IncidentStatus;
  title: string;
  description: string | null;
  cause_reason_code: string | null;
  cause_message: string | null;
  started_at: Date | string;
  acknowledged_at: Date | string | null;
  acknowledged_by_user_id: string | null;
  resolved_at: Date | string | null;
  resolved_by_user_id: string | null;
  created_by_user_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

const COLUMNS = `id, public_id, organization_id, customer_id, monitor_id, origin, status, title, description, cause_reason_code,
  cause_message, started_at, acknowledged_at, acknowledged_by_user_id, resolved_at, resolved_by_user_id, created_by_user_id,
  created_at, updated_at, version`;

/** The context's connection hands timestamps over as text. */
const dateOf = (at: Date | string | null) => (at === null ? null : new Date(at));

const incidentOf = (row: IncidentRow): Incident =>
  Object.assign(
    new Incident({
      publicId: row.public_id,
      organizationId: row.organization_id,
      customerId: row.customer_id,
      monitorId: Number(row.monitor_id),
      origin: row.origin,
      title: row.title,
      description: row.description,
      causeReasonCode: row.cause_reason_code,
      causeMessage: row.cause_message,
      startedAt: new Date(row.started_at),
      createdByUserId: row.created_by_user_id,
      now: new Date(row.created_at),
    }),
    {
      id: row.id,
      status: row.status,
      acknowledgedAt: dateOf(row.acknowledged_at),
      acknowledgedByUserId: row.acknowledged_by_user_id,
      resolvedAt: dateOf(row.resolved_at),
      resolvedByUserId: row.resolved_by_user_id,
      updatedAt: new Date(row.updated_at),
      version: row.version,
    },
  );

interface TimelineRow {
  id: string | number;
  incident_id: number;
  kind: TimelineEntry['kind'];
  at: Date | string;
  location: string | null;
  status: TimelineEntry['status'];
  reason_code: string | null;
  message: string | null;
  user_id: string | null;
}

const timelineEntryOf = (row: TimelineRow): TimelineEntry =>
  Object.assign(
    new TimelineEntry({
      incidentId: row.incident_id,
      kind: row.kind,
      at: new Date(row.at),
      location: row.location,
      status: row.status,
      reasonCode: row.reason_code,
      message: row.message,
      userId: row.user_id,
    }),
    { id: Number(row.id) },
  );

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

const INT = /^\d{1,9}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Incidents in the `sql` kit, with their mapper and optimistic version: a save names the version it
 * read (`conflict` when the engine or another request saved the incident since). The alert engine's
 * batch path (findManyById ... saveResolutions, addTimeline) is set-based SQL on the same handle,
 * which joins the caller's transaction: the use cases pass `tx` where a write must commit with others.
 */
export class SqlIncidentRepository implements IncidentRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(incident: Incident, tx: Transaction): Promise<Incident> {
    const i = incident;
    const [row] = await sqlOf(tx).query<{ id: number }>(
      sql`INSERT INTO incidents (public_id, organization_id, customer_id, monitor_id, origin, status, title, description, cause_reason_code,
          cause_message, started_at, acknowledged_at, acknowledged_by_user_id, resolved_at, resolved_by_user_id, created_by_user_id,
          created_at, updated_at, version)
        VALUES (${i.publicId}, ${i.organizationId}, ${i.customerId}, ${i.monitorId}, ${i.origin}, ${i.status}, ${i.title}, ${i.description},
          ${i.causeReasonCode}, ${i.causeMessage}, ${i.startedAt}, ${i.acknowledgedAt}, ${i.acknowledgedByUserId}, ${i.resolvedAt},
          ${i.resolvedByUserId}, ${i.createdByUserId}, ${i.createdAt}, ${i.updatedAt}, ${i.version})
        RETURNING id`,
    );
    i.id = Number(row!.id);
    return i;
  }

  async save(incident: Incident, tx: Transaction): Promise<void> {
    const i = incident;
    const rows = await racing(() =>
      sqlOf(tx).query(
        sql`UPDATE incidents SET status = ${i.status}, title = ${i.title}, description = ${i.description},
            acknowledged_at = ${i.acknowledgedAt}, acknowledged_by_user_id = ${i.acknowledgedByUserId}, resolved_at = ${i.resolvedAt},
            resolved_by_user_id = ${i.resolvedByUserId}, updated_at = ${i.updatedAt}, version = version + 1
          WHERE id = ${i.id} AND version = ${i.version} RETURNING version`,
      ),
    );
    versionSaved(i, rows);
  }

  async remove(incident: Incident, tx: Transaction): Promise<void> {
    // the timeline goes by the foreign key's cascade
    await racing(() => sqlOf(tx).query(sql`DELETE FROM incidents WHERE id = ${incident.id}`));
  }

  async findById(id: number): Promise<Incident | null> {
    const [row] = await this.sql.query<IncidentRow>(sql`SELECT ${raw(COLUMNS)} FROM incidents WHERE id = ${id}`);
    return row ? incidentOf(row) : null;
  }

  findByRefIn(scope: TenantScope, ref: string, tx: Transaction): Promise<Incident | null> {
    return this.findByRef(scope, ref, sqlOf(tx));
  }

  async findByRef(scope: TenantScope, ref: string, on: SqlRunner = this.sql): Promise<Incident | null> {
    const key = INT.test(ref) ? sql`id = ${Number(ref)}` : UUID.test(ref) ? sql`public_id = ${ref.toLowerCase()}` : null;
    if (!key) return null;
    const [row] = await on.query<IncidentRow>(
      sql`SELECT ${raw(COLUMNS)} FROM incidents WHERE ${key} AND organization_id = ${scope.organizationId}
        ${scope.customerId === null ? empty : sql`AND customer_id = ${scope.customerId}`}`,
    );
    return row ? incidentOf(row) : null;
  }

  async list(scope: TenantScope, filter: IncidentFilter, page: { page: number; perPage: number }) {
    if (scope.customerId !== null && filter.customerId !== undefined && filter.customerId !== scope.customerId) {
      return { items: [], total: 0 };
    }
    const customerId = scope.customerId ?? filter.customerId;
    const where: Sql[] = [sql`organization_id = ${scope.organizationId}`];
    if (customerId !== undefined) where.push(sql`customer_id = ${customerId}`);
    if (filter.status) where.push(sql`status = ${filter.status}`);
    if (filter.origin) where.push(sql`origin = ${filter.origin}`);
    if (filter.monitorId !== undefined) where.push(sql`monitor_id = ${filter.monitorId}`);
    if (filter.to) where.push(sql`started_at <= ${filter.to}`);
    if (filter.from) where.push(sql`(resolved_at IS NULL OR resolved_at >= ${filter.from})`);
    const condition = join(where, ' AND ');
    const rows = await this.sql.query<IncidentRow & { total: string }>(
      sql`SELECT ${raw(COLUMNS)}, count(*) OVER () AS total FROM incidents WHERE ${condition}
        ORDER BY started_at DESC, id DESC LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
    );
    let total = rows[0] ? Number(rows[0].total) : 0;
    if (rows.length === 0 && page.page > 1) {
      const [count] = await this.sql.query<{ n: string }>(sql`SELECT count(*) AS n FROM incidents WHERE ${condition}`);
      total = Number(count?.n ?? 0);
    }
    return { items: rows.map(incidentOf), total };
  }

  async addTimeline(entries: readonly TimelineEntry[], tx: Transaction): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map((e) => [e.incidentId, e.kind, e.at.toISOString(), e.location, e.status, e.reasonCode, e.message, e.userId]);
    await sqlOf(tx).query(sql`INSERT INTO incident_timeline (incident_id, kind, at, location, status, reason_code, message, user_id)
       SELECT (e->>0)::integer, e->>1, (e->>2)::timestamptz, e->>3, e->>4, e->>5, e->>6, (e->>7)::uuid
         FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) WITH ORDINALITY AS r(e, n) ORDER BY n`);
    // An update posted to the timeline (a person's note) is told on the live stream.
    await appendLiveEvents(
      tx,
      entries.flatMap((e) => (e.kind === 'update' ? [{ kind: 'incident.updated' as const, incidentId: e.incidentId, at: e.at }] : [])),
    );
  }

  async findManyById(ids: readonly number[], tx: Transaction): Promise<Map<number, Incident>> {
    if (ids.length === 0) return new Map();
    const rows = await sqlOf(tx).query<IncidentRow>(
      sql`SELECT ${raw(COLUMNS)} FROM incidents WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(ids)])}::jsonb)::integer)`,
    );
    return new Map(rows.map((row) => [row.id, incidentOf(row)]));
  }

  async reserveIds(count: number, tx: Transaction): Promise<number[]> {
    if (count <= 0) return [];
    // The sequence named once (q), not looked up in the catalogue again for every id: a storm's
    // chunk reserves hundreds.
    const rows = await sqlOf(tx).query<{ id: number }>(
      sql`SELECT nextval(q.s)::integer AS id
            FROM (SELECT pg_get_serial_sequence('incidents', 'id')::regclass AS s) q, generate_series(1, ${count}::integer)`,
    );
    return rows.map((row) => row.id);
  }

  async addMany(incidents: readonly Incident[], tx: Transaction): Promise<void> {
    if (incidents.length === 0) return;
    const rows = incidents.map((i) => [
      i.id,
      i.publicId,
      i.organizationId,
      i.customerId,
      i.monitorId,
      i.origin,
      i.status,
      i.title,
      i.description,
      i.causeReasonCode,
      i.causeMessage,
      iso(i.startedAt),
      iso(i.acknowledgedAt),
      i.acknowledgedByUserId,
      iso(i.resolvedAt),
      i.resolvedByUserId,
      i.createdByUserId,
      iso(i.createdAt),
      iso(i.updatedAt),
      i.version,
    ]);
    await sqlOf(tx).query(
      sql`INSERT INTO incidents (${raw(COLUMNS)})
       SELECT (e->>0)::integer, (e->>1)::uuid, (e->>2)::integer, (e->>3)::integer, (e->>4)::bigint, e->>5, e->>6, e->>7, e->>8, e->>9,
              e->>10, (e->>11)::timestamptz, (e->>12)::timestamptz, (e->>13)::uuid, (e->>14)::timestamptz, (e->>15)::uuid,
              (e->>16)::uuid, (e->>17)::timestamptz, (e->>18)::timestamptz, (e->>19)::integer
         FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) WITH ORDINALITY AS r(e, n) ORDER BY n`,
    );
  }

  async saveResolutions(incidents: readonly Incident[], tx: Transaction): Promise<void> {
    if (incidents.length === 0) return;
    const rows = incidents.map((i) => [i.id, iso(i.resolvedAt), i.resolvedByUserId, iso(i.updatedAt)]);
    const updated = await sqlOf(tx).query<{
      id: number;
      version: number;
    }>(sql`UPDATE incidents i SET status = 'resolved', resolved_at = (e->>1)::timestamptz, resolved_by_user_id = (e->>2)::uuid,
              updated_at = (e->>3)::timestamptz, version = i.version + 1
         FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) AS r(e)
        WHERE i.id = (e->>0)::integer
       RETURNING i.id, i.version`);
    const versions = new Map(updated.map((row) => [row.id, row.version]));
    for (const incident of incidents) incident.version = versions.get(incident.id) ?? incident.version;
  }

  async timeline(incidentId: number): Promise<TimelineEntry[]> {
    const rows = await this.sql.query<TimelineRow>(
      sql`SELECT id, incident_id, kind, at, location, status, reason_code, message, user_id FROM incident_timeline
        WHERE incident_id = ${incidentId} ORDER BY at ASC, id ASC`,
    );
    return rows.map(timelineEntryOf);
  }
}
