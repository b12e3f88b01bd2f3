import type { BurnEvent, ServiceLevelEvents } from '../../application/service-levels/ports';
import type { UnitOfWorkSql } from '../persistence/database';
import { sql } from '../persistence/sql';

const SUMMARY = { 'slo.burning': 'Error budget burning fast', 'slo.recovered': 'Error budget no longer burning fast' } as const;

/**
 * Queues burn events in notification_outbox (kind = the event name) inside the caller's
 * transaction, as maintenance and incident events are: the notification worker routes them to the
 * organization's and the customer's channels listing the event (a monitor's overrides apply to a
 * monitor's objective).
 */
export class OutboxServiceLevelEvents implements ServiceLevelEvents {
  constructor(private readonly sql: UnitOfWorkSql) {}

  async publish(event: BurnEvent): Promise<void> {
    const o = event.objective;
    const summary = `${SUMMARY[event.kind]}: ${o.name} (target ${o.target} %)`;
    const data = {
      objectiveId: o.publicId,
      name: o.name,
      target: o.target,
      window: o.window,
      ...(o.subject.type === 'monitor' ? { monitorPublicId: o.subject.monitorPublicId } : {}),
      ...event.data,
    };
    // The delivery ledger reads customerId, monitorId, occurredAt, summary and data (the message's details) from the payload.
    const payload = {
      kind: event.kind,
      organizationId: o.organizationId,
      customerId: o.customerId,
      monitorId: o.subject.type === 'monitor' ? o.subject.monitorId : null,
      occurredAt: event.occurredAt.toISOString(),
      summary,
      data,
    };
    await this.sql.query(
      sql`INSERT INTO notification_outbox (organization_id, kind, payload, subject, body) VALUES (${o.organizationId}, ${event.kind}, ${JSON.stringify(payload)}::jsonb, ${summary}, ${summary})`,
    );
  }
}
