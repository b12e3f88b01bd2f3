import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { PageEvent, PageEventFeed } from '../../application/status-pages/ports';
import { maintenanceSummary } from '../../domain/maintenance/events';
import { decodePublishedEvent, type OutboxRow, type PublishedEvent, type RefusedEvents } from '../event-catalogue/published-events';
import { warnRefused } from '../event-catalogue/refused';
import type { SqlRunner } from '../persistence/database';
import { join, sql } from '../persistence/sql';

const KINDS = ['incidentOpened', 'incidentResolved', 'maintenance.scheduled', 'maintenance.started', 'maintenance.ended'] as const;

/** What subscribers hear of an incident or maintenance event. */
function pageEventOf(id: number, event: PublishedEvent): PageEvent | null {
  switch (event.kind) {
    case 'incidentOpened':
    case 'incidentResolved':
      return {
        id,
        organizationId: event.organizationId,
        kind: event.kind,
        monitorId: event.monitorId,
        origin: event.data.origin === 'manual' ? 'manual' : 'automatic',
        subjectId: event.incidentPublicId,
        summary: event.summary,
        occurredAt: event.occurredAt,
        occurrence: null,
      };
    case 'maintenance.scheduled':
    case 'maintenance.started':
    case 'maintenance.ended':
      return {
        id,
        organizationId: event.organizationId,
        kind: event.kind,
        monitorId: null,
        subjectId: event.windowId,
        summary: maintenanceSummary(event),
        occurredAt: event.occurredAt,
        occurrence: event.occurrence,
      };
    default:
      return null;
  }
}

/** Incident and maintenance events of notification_outbox that subscribers were not told of yet. */
export class SqlPageEventFeed implements PageEventFeed {
  /** `refused`: told of rows the event decoder refuses (set aside: marked told, never announced). */
  constructor(
    private readonly sql: SqlRunner,
    private readonly refused: RefusedEvents = warnRefused,
  ) {}

  async next(limit: number, tx: Transaction): Promise<PageEvent[]> {
    const rows = await sqlOf(tx).query<OutboxRow>(
      sql`SELECT id, organization_id, kind, payload FROM notification_outbox
        WHERE subscribers_told_at IS NULL AND kind IN (${join(KINDS, ', ')}) AND payload IS NOT NULL
        ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
    );
    const events: PageEvent[] = [];
    const refused: { id: number; kind: string; reason: string }[] = [];
    for (const row of rows) {
      const decoded = decodePublishedEvent(row);
      const event = decoded.ok ? pageEventOf(decoded.id, decoded.event) : null;
      if (event) events.push(event);
      else refused.push(decoded.ok ? { id: decoded.id, kind: row.kind, reason: 'not an event subscribers hear of' } : decoded);
    }
    if (refused.length > 0) {
      // Set aside (marked told) so they do not hold up the rows behind them; the log says which.
      this.refused(refused);
      await sqlOf(tx).query(
        sql`UPDATE notification_outbox SET subscribers_told_at = now() WHERE id IN (${join(
          refused.map((r) => r.id),
          ', ',
        )})`,
      );
    }
    return events;
  }

  async markTold(ids: readonly number[], at: Date, tx: Transaction): Promise<void> {
    if (ids.length === 0) return;
    await sqlOf(tx).query(sql`UPDATE notification_outbox SET subscribers_told_at = ${at} WHERE id IN (${join(ids, ', ')})`);
  }
}
