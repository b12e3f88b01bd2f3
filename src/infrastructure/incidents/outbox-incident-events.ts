import type { IncidentEvents } from '../../application/incidents/ports';
import type { AlertEvent } from '../../domain/incidents/alert-event';
import type { UnitOfWorkSql } from '../persistence/database';
import { sql } from '../persistence/sql';

/**
 * Queues each event in notification_outbox (kind = the event name, payload = the event) inside the
 * transaction that produced it: the transactional-outbox pattern. Notification channels (a later
 * issue) read the rows and stamp delivered_at.
 */
export class OutboxIncidentEvents implements IncidentEvents {
  constructor(private readonly sql: UnitOfWorkSql) {}

  publish(event: AlertEvent): Promise<void> {
    return this.publishMany([event]);
  }

  /** One statement; rows are numbered in the events' order (the router reads them by id). */
  async publishMany(events: readonly AlertEvent[]): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map((event) => ({
      kind: event.kind,
      organizationId: event.organizationId,
      customerId: event.customerId,
      monitorId: event.monitorId,
      incidentId: event.incidentPublicId,
      occurredAt: event.occurredAt.toISOString(),
      summary: event.summary,
      data: event.data,
    }));
    await this.sql.query(sql`INSERT INTO notification_outbox (organization_id, kind, payload, subject, body)
       SELECT (e->>'organizationId')::integer, e->>'kind', e, e->>'summary', e->>'summary'
         FROM jsonb_array_elements(${JSON.stringify(rows)}::jsonb) WITH ORDINALITY AS r(e, n) ORDER BY n`);
  }
}
