import type { NotificationMessage } from '../../domain/notifications/notification-message';
import { CHANNEL_FAILING_EVENT } from '../../domain/notifications/channel-events';
import type { ChannelHealthLedger, DeliveryTarget, FailedDelivery, FailingChannel } from '../../application/notifications/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { channelCustomerOf } from './sql-delivery-records';

/** The delivery target as the rows of `unnest` (none when there is no target). */
const targetRows = (target: DeliveryTarget | null) =>
  sql`unnest(${target ? [target.id] : []}::int[], ${target ? [target.publicId] : []}::uuid[], ${target ? [target.type] : []}::text[])`;

/**
 * Fallbacks and failing-channel announcements in PostgreSQL, each one statement whose guard (the
 * delivery's due mark, the channel's failing mark) lets one worker write it, once.
 */
export class SqlChannelHealthLedger implements ChannelHealthLedger {
  constructor(private readonly sql: SqlRunner) {}

  async fallbacksDue(limit: number): Promise<FailedDelivery[]> {
    const rows = await this.sql.query<{ id: string; organization_id: number; channel_id: number | null }>(
      sql`SELECT id, organization_id, channel_id FROM notification_deliveries WHERE fallback_due ORDER BY created_at LIMIT ${limit}`,
    );
    return rows.map((r) => ({ id: r.id, organizationId: r.organization_id, channelId: r.channel_id }));
  }

  async fallBack(delivery: FailedDelivery, target: DeliveryTarget | null, at: Date): Promise<boolean> {
    // The copy keeps the event's outbox row: a default channel that already received the event gets no second one.
    // It is the organization's delivery (customer_id null): its default channel is no customer's business.
    const rows = await this.sql.query<{ id: string }>(
      sql`WITH due AS (
         UPDATE notification_deliveries SET fallback_due = false WHERE id = ${delivery.id} AND fallback_due
         RETURNING id, organization_id, outbox_id, customer_id, monitor_id, incident_id, event, payload
       ), copied AS (
         INSERT INTO notification_deliveries
           (organization_id, outbox_id, channel_id, channel_public_id, channel_type, channel_customer_id, customer_id, monitor_id, incident_id, event, payload,
            next_attempt_at, created_at, fallback_of)
         SELECT due.organization_id, due.outbox_id, ch.id, ch.public_id, ch.type, ${channelCustomerOf('ch.id')}, NULL, due.monitor_id, due.incident_id, due.event,
                due.payload, ${at}, ${at}, due.id
           FROM due, ${targetRows(target)} AS ch(id, public_id, type)
         ON CONFLICT (outbox_id, channel_public_id) DO NOTHING
       )
       SELECT id::text FROM due`,
    );
    return rows.length > 0;
  }

  async failingUnannounced(failingAfter: number, limit: number): Promise<FailingChannel[]> {
    const rows = await this.sql.query<{
      id: number;
      public_id: string;
      organization_id: number;
      customer_id: number | null;
      name: string;
      type: string;
      consecutive_failures: number;
      last_failure_reason: string | null;
    }>(sql`SELECT id, public_id, organization_id, customer_id, name, type, consecutive_failures, last_failure_reason FROM notification_channels
        WHERE consecutive_failures >= ${failingAfter} AND consecutive_failures > 0 AND failing_since IS NULL ORDER BY id LIMIT ${limit}`);
    return rows.map((r) => ({
      id: r.id,
      publicId: r.public_id,
      organizationId: r.organization_id,
      customerId: r.customer_id,
      name: r.name,
      type: r.type,
      consecutiveFailures: r.consecutive_failures,
      lastFailureReason: r.last_failure_reason,
    }));
  }

  async announceFailing(
    channel: FailingChannel,
    failingAfter: number,
    target: DeliveryTarget | null,
    message: Omit<NotificationMessage, 'id'>,
    at: Date,
  ): Promise<boolean> {
    const payload = {
      kind: CHANNEL_FAILING_EVENT,
      organizationId: channel.organizationId,
      customerId: null,
      monitorId: null,
      incidentId: null,
      occurredAt: message.occurredAt,
      summary: message.summary,
      data: message.data,
    };
    const rows = await this.sql.query<{ id: number }>(
      sql`WITH marked AS (
         UPDATE notification_channels SET failing_since = ${at}
          WHERE id = ${channel.id} AND failing_since IS NULL AND consecutive_failures >= ${failingAfter} AND consecutive_failures > 0
          RETURNING id, organization_id
       ), event AS (
         INSERT INTO notification_outbox (organization_id, kind, payload, subject, body, routed_at, delivered_at)
         SELECT organization_id, ${CHANNEL_FAILING_EVENT}, ${JSON.stringify(payload)}::jsonb, ${message.summary}, ${message.summary}, ${at}, ${at} FROM marked RETURNING id, organization_id
       ), inserted AS (
         INSERT INTO notification_deliveries
           (organization_id, outbox_id, channel_id, channel_public_id, channel_type, channel_customer_id, customer_id, monitor_id, incident_id, event, payload, next_attempt_at, created_at)
         SELECT event.organization_id, event.id, ch.id, ch.public_id, ch.type, ${channelCustomerOf('ch.id')}, NULL, NULL, NULL, ${CHANNEL_FAILING_EVENT}, ${JSON.stringify(message)}::jsonb, ${at}, ${at}
           FROM event, ${targetRows(target)} AS ch(id, public_id, type)
       )
       SELECT id FROM marked`,
    );
    return rows.length > 0;
  }
}
