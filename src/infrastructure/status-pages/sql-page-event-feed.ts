import type { PageEvent, PageEventFeed } from '../../application/status-pages/ports';
import type { UnitOfWorkSql } from '../persistence/database';

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
      `SELECT id, organization_id, kind, payload FROM notification_outbox
        WHERE subscribers_told_at IS NULL AND kind IN (${KINDS.map(() => '?').join(', ')}) AND payload IS NOT NULL
        ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED`,
      [...KINDS, limit],
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
    await this.sql.query(`UPDATE notification_outbox SET subscribers_told_at = ? WHERE id IN (${ids.map(() => '?').join(', ')})`, [
      at,
      ...ids,
    ]);
  }
}
