import type { MaintenanceEvent, MaintenanceEvents } from '../../application/maintenance/ports';
import type { UnitOfWorkSql } from '../persistence/database';
import { sql } from '../persistence/sql';

/**
 * Queues maintenance events in notification_outbox (kind = the event name) inside the caller's
 * transaction, beside the incident events, for the notification channels and status pages.
 */
export class OutboxMaintenanceEvents implements MaintenanceEvents {
  constructor(private readonly sql: UnitOfWorkSql) {}

  async publish(event: MaintenanceEvent): Promise<void> {
    const summary = `${SUMMARY[event.kind]}: ${event.title}`;
    const window = {
      maintenanceWindowId: event.windowId,
      title: event.title,
      startTime: event.occurrence.start.toISOString(),
      endTime: event.occurrence.end.toISOString(),
      targets: event.targets,
    };
    // The delivery ledger reads customerId, occurredAt, summary and data (the message's details) from the payload.
    const payload = {
      kind: event.kind,
      organizationId: event.organizationId,
      customerId: event.customerId,
      ...window,
      occurredAt: event.occurredAt.toISOString(),
      summary,
      data: window,
    };
    await this.sql.query(
      sql`INSERT INTO notification_outbox (organization_id, kind, payload, subject, body) VALUES (${event.organizationId}, ${event.kind}, ${JSON.stringify(payload)}::jsonb, ${summary}, ${summary})`,
    );
  }
}

const SUMMARY = {
  'maintenance.scheduled': 'Maintenance scheduled',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance ended',
} as const;
