import type { OutboxEvent } from '../../application/notifications/ports';
import { maintenanceSummary } from '../../domain/maintenance/events';
import { decodePublishedEvent, type OutboxRow, type PublishedEvent, type RefusedEvents } from '../event-catalogue/published-events';

/**
 * What channels are told of a published event (routing's `OutboxEvent`), by its publisher's type:
 * who it concerns (customer, monitor, incident), when, its line of text and its details.
 */
export function relayedEventOf(id: number, event: PublishedEvent): OutboxEvent {
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
  }
}

/** Rows read through the event decoder: the events channels are told of, and the rows refused (reported to `refused`). */
export function relayedEventsOf<R extends OutboxRow>(rows: readonly R[], refused: RefusedEvents): { row: R; event: OutboxEvent }[] {
  const read: { row: R; event: OutboxEvent }[] = [];
  const set: { id: number; kind: string; reason: string }[] = [];
  for (const row of rows) {
    const decoded = decodePublishedEvent(row);
    if (decoded.ok) read.push({ row, event: relayedEventOf(decoded.id, decoded.event) });
    else set.push(decoded);
  }
  if (set.length > 0) refused(set);
  return read;
}
