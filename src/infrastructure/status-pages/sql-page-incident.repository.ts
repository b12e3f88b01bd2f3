import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { PageIncident, type PageIncidentUpdate, type UpdateStatus } from '../../domain/status-pages/page-incident';
import type { PageIncidentRepository } from '../../application/status-pages/ports';
import type { SqlRunner } from '../persistence/database';
import { refCondition } from '../persistence/tenant-scope';
import { sql, type Sql } from '../persistence/sql';
import { versionSaved } from '../persistence/optimistic';

interface Row {
  id: number;
  public_id: string;
  page_id: number;
  incident_id: number | null;
  incident_public_id: string | null;
  title: string;
  status: UpdateStatus;
  component_keys: string[] | string;
  created_at: Date | string;
  updated_at: Date | string;
  resolved_at: Date | string | null;
  version: number;
}

const SELECT = sql`SELECT pi.id, pi.public_id, pi.page_id, pi.incident_id, i.public_id AS incident_public_id, pi.title, pi.status, pi.component_keys,
  pi.created_at, pi.updated_at, pi.resolved_at, pi.version
  FROM status_page_incidents pi LEFT JOIN incidents i ON i.id = pi.incident_id`;

/** Page incidents and their updates in plain SQL on the current unit of work. */
export class SqlPageIncidentRepository implements PageIncidentRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(incident: PageIncident, tx: Transaction): Promise<PageIncident> {
    const [row] = await sqlOf(tx).query<{ id: number }>(
      sql`INSERT INTO status_page_incidents (public_id, page_id, incident_id, title, status, component_keys, created_at, updated_at, resolved_at)
       VALUES (${incident.publicId}, ${incident.pageId}, ${incident.incidentId}, ${incident.title}, ${incident.status}, ${JSON.stringify(incident.componentKeys)}::jsonb, ${incident.createdAt}, ${incident.updatedAt}, ${incident.resolvedAt}) RETURNING id`,
    );
    incident.id = Number(row!.id);
    await this.addUpdates(incident, tx);
    return incident;
  }

  /** Optimistic: an incident changed since it was read (another update posted) answers `conflict`, its new updates unwritten. */
  async save(incident: PageIncident, tx: Transaction): Promise<void> {
    const rows = await sqlOf(tx).query(
      sql`UPDATE status_page_incidents SET title = ${incident.title}, status = ${incident.status}, component_keys = ${JSON.stringify(incident.componentKeys)}::jsonb, updated_at = ${incident.updatedAt}, resolved_at = ${incident.resolvedAt}, version = version + 1
          WHERE id = ${incident.id} AND version = ${incident.version} RETURNING version`,
    );
    versionSaved(incident, rows);
    await this.addUpdates(incident, tx);
  }

  async findByRef(pageId: number, ref: string): Promise<PageIncident | null> {
    const condition = refCondition(ref, 'pi');
    if (!condition) return null;
    return (await this.load(sql`${SELECT} WHERE pi.page_id = ${pageId} AND ${condition}`))[0] ?? null;
  }

  async findByServiceIncident(pageId: number, incidentId: number): Promise<PageIncident | null> {
    return (await this.load(sql`${SELECT} WHERE pi.page_id = ${pageId} AND pi.incident_id = ${incidentId}`))[0] ?? null;
  }

  list(pageId: number, since: Date): Promise<PageIncident[]> {
    return this.load(
      sql`${SELECT} WHERE pi.page_id = ${pageId} AND (pi.resolved_at IS NULL OR pi.updated_at >= ${since}) ORDER BY pi.created_at DESC, pi.id DESC`,
    );
  }

  private async addUpdates(incident: PageIncident, tx: Transaction): Promise<void> {
    const stored: PageIncidentUpdate[] = [];
    for (const update of incident.updates) {
      if (update.id !== 0) {
        stored.push(update);
        continue;
      }
      const [row] = await sqlOf(tx).query<{ id: number }>(
        sql`INSERT INTO status_page_updates (page_incident_id, status, message, created_at) VALUES (${incident.id}, ${update.status}, ${update.message}, ${update.createdAt}) RETURNING id`,
      );
      stored.push({ ...update, id: Number(row!.id) });
    }
    incident.updates = stored;
  }

  private async load(statement: Sql): Promise<PageIncident[]> {
    const rows = await this.sql.query<Row>(statement);
    if (rows.length === 0) return [];
    const updates = await this.sql.query<{
      id: number;
      page_incident_id: number;
      status: UpdateStatus;
      message: string;
      created_at: Date | string;
    }>(
      sql`SELECT id, page_incident_id, status, message, created_at FROM status_page_updates WHERE page_incident_id = ANY(${`{${rows.map((r) => Number(r.id)).join(',')}}`}::int4[]) ORDER BY id`,
    );
    return rows.map((row) =>
      Object.assign(
        new PageIncident({
          id: Number(row.id),
          publicId: row.public_id,
          pageId: Number(row.page_id),
          incidentId: row.incident_id === null ? null : Number(row.incident_id),
          incidentPublicId: row.incident_public_id,
          title: row.title,
          status: row.status,
          componentKeys: typeof row.component_keys === 'string' ? JSON.parse(row.component_keys) : row.component_keys,
          updates: updates
            .filter((u) => Number(u.page_incident_id) === Number(row.id))
            .map((u) => ({ id: Number(u.id), status: u.status, message: u.message, createdAt: new Date(u.created_at) })),
          createdAt: new Date(row.created_at),
          updatedAt: new Date(row.updated_at),
          resolvedAt: row.resolved_at === null ? null : new Date(row.resolved_at),
        }),
        { version: Number(row.version) },
      ),
    );
  }
}
