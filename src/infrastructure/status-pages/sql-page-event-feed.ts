import type { PageEvent, PageEventFeed } from '../../application/status-pages/ports';
import type { UnitOfWorkSql } from '../persistence/database';
import { join, sql } from '../persistence/sql';

const KINDS = ['incidentOpened', 'incidentResolved', 'maintenance.scheduled', 'maintenance.started', 'maintenance.ended'];

interface Row {
  id: string;
  organization_id: number;
  kind: PageEvent['kind'];
  payload: Record<string, unknown>;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown) => (typeof v === 'string' ? v : null);

/** Incident and maintenance events of notification_outbox that subscribers were not told of yet. */
export class SqlPageEventFeed implements PageEventFeed {
  constructor(private readonly sql: UnitOfWorkSql) {}

  async next(limit: number): Promise<PageEvent[]> {
    const rows = await this.sql.query<Row>(
      sql`SELECT id, organization_id, kind, payload FROM notification_outbox
        WHERE subscribers_told_at IS NULL AND kind IN (${join(KINDS, ', ')}) AND payload IS NOT NULL
        ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      organizationId: Number(r.organization_id),
      kind: r.kind,
      monitorId: r.kind.startsWith('incident') ? num(r.payload.monitorId) : null,
      origin: r.kind.startsWith('incident')
        ? str((r.payload.data as Record<string, unknown> | undefined)?.origin) === 'manual'
          ? 'manual'
          : 'automatic'
        : undefined,
      subjectId: str(r.payload.incidentId) ?? str(r.payload.maintenanceWindowId),
      summary: str(r.payload.summary) ?? r.kind,
      occurredAt: new Date(str(r.payload.occurredAt) ?? 0),
      occurrence:
        str(r.payload.startTime) && str(r.payload.endTime)
          ? { start: new Date(str(r.payload.startTime)!), end: new Date(str(r.payload.endTime)!) }
          : null,
    }));
  }

  async markTold(ids: readonly number[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.query(sql`UPDATE notification_outbox SET subscribers_told_at = ${at} WHERE id IN (${join(ids, ', ')})`);
  }
}
