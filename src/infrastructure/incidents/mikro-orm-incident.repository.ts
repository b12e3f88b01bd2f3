import type { FilterQuery } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { IncidentFilter, IncidentRepository } from '../../application/incidents/ports';
import { Incident, type IncidentOrigin, type IncidentStatus } from '../../domain/incidents/incident';
import { TimelineEntry } from '../../domain/incidents/timeline-entry';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { UnitOfWorkSql } from '../persistence/database';
import { OrmRepository } from '../persistence/orm-repository';
import { raw, sql } from '../persistence/sql';

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
  started_at: Date;
  acknowledged_at: Date | string | null;
  acknowledged_by_user_id: string | null;
  resolved_at: Date | string | null;
  resolved_by_user_id: string | null;
  created_by_user_id: string | null;
  created_at: Date;
  updated_at: Date;
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

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

const INT = /^\d{1,9}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Incidents through the unit of work for the API's use cases; the alert engine's batch path
 * (findManyById ... saveResolutions, addTimeline) is plain set-based SQL on `sql`, which joins the
 * caller's transaction: the engine's incidents never enter a unit of work.
 */
export class MikroOrmIncidentRepository extends OrmRepository implements IncidentRepository {
  constructor(orm: MikroORM, sql: UnitOfWorkSql) {
    super(orm, sql);
  }

  async add(incident: Incident): Promise<Incident> {
    await this.persist(incident);
    return incident;
  }

  save(incident: Incident): Promise<void> {
    return this.persist(incident);
  }

  async remove(incident: Incident): Promise<void> {
    this.em.remove(incident);
    await this.flush();
  }

  findById(id: number): Promise<Incident | null> {
    return this.em.findOne(Incident, { id });
  }

  async findByRef(scope: TenantScope, ref: string): Promise<Incident | null> {
    const key = INT.test(ref) ? { id: Number(ref) } : UUID.test(ref) ? { publicId: ref.toLowerCase() } : null;
    if (!key) return null;
    return this.em.findOne(Incident, {
      ...key,
      organizationId: scope.organizationId,
      ...(scope.customerId === null ? {} : { customerId: scope.customerId }),
    });
  }

  async list(scope: TenantScope, filter: IncidentFilter, page: { page: number; perPage: number }) {
    if (scope.customerId !== null && filter.customerId !== undefined && filter.customerId !== scope.customerId) {
      return { items: [], total: 0 };
    }
    const customerId = scope.customerId ?? filter.customerId;
    const where: FilterQuery<Incident> = {
      organizationId: scope.organizationId,
      ...(customerId === undefined ? {} : { customerId }),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.origin ? { origin: filter.origin } : {}),
      ...(filter.monitorId === undefined ? {} : { monitorId: filter.monitorId }),
      ...(filter.to ? { startedAt: { $lte: filter.to } } : {}),
      ...(filter.from ? { $or: [{ resolvedAt: null }, { resolvedAt: { $gte: filter.from } }] } : {}),
    };
    const [items, total] = await this.em.findAndCount(Incident, where, {
      orderBy: { startedAt: 'desc', id: 'desc' },
      limit: page.perPage,
      offset: (page.page - 1) * page.perPage,
    });
    return { items, total };
  }

  async addTimeline(entries: readonly TimelineEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map((e) => [e.incidentId, e.kind, e.at.toISOString(), e.location, e.status, e.reasonCode, e.message, e.userId]);
    await this.sql.query(sql`INSERT INTO incident_timeline (incident_id, kind, at, location, status, reason_code, message, user_id)
       SELECT (e->>0)::integer, e->>1, (e->>2)::timestamptz, e->>3, e->>4, e->>5, e->>6, (e->>7)::uuid
         FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) WITH ORDINALITY AS r(e, n) ORDER BY n`);
  }

  async findManyById(ids: readonly number[]): Promise<Map<number, Incident>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<IncidentRow>(
      sql`SELECT ${raw(COLUMNS)} FROM incidents WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify([...new Set(ids)])}::jsonb)::integer)`,
    );
    return new Map(rows.map((row) => [row.id, incidentOf(row)]));
  }

  async reserveIds(count: number): Promise<number[]> {
    if (count <= 0) return [];
    const rows = await this.sql.query<{ id: number }>(
      sql`SELECT nextval(pg_get_serial_sequence('incidents', 'id'))::integer AS id FROM generate_series(1, ${count}::integer)`,
    );
    return rows.map((row) => row.id);
  }

  async addMany(incidents: readonly Incident[]): Promise<void> {
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
    await this.sql.query(
      sql`INSERT INTO incidents (${raw(COLUMNS)})
       SELECT (e->>0)::integer, (e->>1)::uuid, (e->>2)::integer, (e->>3)::integer, (e->>4)::bigint, e->>5, e->>6, e->>7, e->>8, e->>9,
              e->>10, (e->>11)::timestamptz, (e->>12)::timestamptz, (e->>13)::uuid, (e->>14)::timestamptz, (e->>15)::uuid,
              (e->>16)::uuid, (e->>17)::timestamptz, (e->>18)::timestamptz, (e->>19)::integer
         FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) WITH ORDINALITY AS r(e, n) ORDER BY n`,
    );
  }

  async saveResolutions(incidents: readonly Incident[]): Promise<void> {
    if (incidents.length === 0) return;
    const rows = incidents.map((i) => [i.id, iso(i.resolvedAt), i.resolvedByUserId, iso(i.updatedAt)]);
    const updated = await this.sql.query<{
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

  timeline(incidentId: number): Promise<TimelineEntry[]> {
    return this.em.find(TimelineEntry, { incidentId }, { orderBy: { at: 'asc', id: 'asc' } });
  }
}
