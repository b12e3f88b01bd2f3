import type { OutboxEvent } from '../../application/notifications/ports';
import { maintenanceSummary } from '../../domain/maintenance/events';
import { channelEventOf, type PublishedEventKind as KindsChannelsKnow } from '../../domain/notifications/delivery-schedule';
import {
  decodePublishedEvent,
  type OutboxRow,
  type PublishedEvent,
  type PublishedEventKind,
  type RefusedEvents,
} from '../event-catalogue/published-events';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/**
 * The kinds the catalogue decodes are the kinds the channel-event table is total over
 * (domain/notifications/delivery-schedule.ts): a publisher added to one and not the other fails here.
 */
const KINDS_AGREE: Same<PublishedEventKind, KindsChannelsKnow> = true;
void KINDS_AGREE;

/**
 * What channels are told of a published event (routing's `OutboxEvent`), by its publisher's type:
 * who it concerns (customer, monitor, incident), when, its line of text and its details. Null for
 * an event channels do not receive (its kind has no channel event in delivery-schedule.ts).
 */
export function relayedEventOf(id: number, event: PublishedEvent): OutboxEvent | null {
  if (channelEventOf(event.kind) === null) return null;
  const common = { id, organizationId: event.organizationId, kind: event.kind, occurredAt: event.occurredAt.toISOString() };
  switch (event.kind) {
    case 'incidentOpened':
    case 'incidentAcknowledged':
    case 'incidentResolved':
    case 'reminderDue':
    case 'sslExpiryReminder':
    case 'sslExpired':
    case 'dnsblReminder':
      return {
        ...common,
        customerId: event.customerId,
        monitorId: event.monitorId,
        incidentId: event.incidentPublicId,
        summary: event.summary,
        data: event.data,
      };
    case 'maintenance.scheduled':
    case 'maintenance.started':
    case 'maintenance.ended': {
      const data = {
        maintenanceWindowId: event.windowId,
        title: event.title,
        startTime: event.occurrence.start.toISOString(),
        endTime: event.occurrence.end.toISOString(),
        targets: event.targets,
      };
      return { ...common, customerId: event.customerId, monitorId: null, incidentId: null, summary: maintenanceSummary(event), data };
    }
    case 'slo.burning':
    case 'slo.recovered':
      return {
        ...common,
        customerId: event.customerId,
        monitorId: event.monitorId,
        incidentId: null,
        summary: event.summary,
        data: event.data,
      };
    case 'domain.expiring':
    case 'domain.expired':
    case 'ip.listed':
    case 'ip.clean':
      return { ...common, customerId: event.customerId, monitorId: null, incidentId: null, summary: event.summary, data: event.data };
    case 'identity.securityNotice':
      return null;
  }
}

/** Rows read through the event decoder: the events channels are told of, and the rows refused (reported to `refused`). */
export function relayedEventsOf<R extends OutboxRow>(rows: readonly R[], refused: RefusedEvents): { row: R; event: OutboxEvent }[] {
  const read: { row: R; event: OutboxEvent }[] = [];
  const set: { id: number; kind: string; reason: string }[] = [];
  for (const row of rows) {
    const decoded = decodePublishedEvent(row);
    const event = decoded.ok ? relayedEventOf(decoded.id, decoded.event) : null;
    if (event) read.push({ row, event });
    else set.push(decoded.ok ? { id: decoded.id, kind: row.kind, reason: 'not an event channels receive' } : decoded);
  }
  if (set.length > 0) refused(set);
  return read;
}
