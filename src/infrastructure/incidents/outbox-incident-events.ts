import type { IncidentEvents } from '../../application/incidents/ports';
import type { AlertEvent } from '../../domain/incidents/alert-event';
import type { SqlRunner } from '../persistence/database';

/**
 * Queues each event in notification_outbox (kind = the event name, payload = the event) inside the
 * transaction that produced it: the transactional-outbox pattern. Notification channels (a later
 * issue) read the rows and stamp delivered_at.
 */
export class OutboxIncidentEvents implements IncidentEvents {
  constructor(private readonly sql: SqlRunner) {}

  async publish(event: AlertEvent): Promise<void> {
    const payload = {
      kind: event.kind, organizationId: event.organizationId, customerId: event.customerId, monitorId: event.monitorId,
      incidentId: event.incidentPublicId, occurredAt: event.occurredAt.toISOString(), summary: event.summary, data: event.data,
    };
    await this.sql.query(
      `INSERT INTO notification_outbox (organization_id, kind, payload, subject, body) VALUES (?, ?, ?::jsonb, ?, ?)`,
      [event.organizationId, event.kind, JSON.stringify(payload), event.summary, event.summary],
    );
  }
}
