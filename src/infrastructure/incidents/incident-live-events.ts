import type { IncidentEvent } from '../../domain/incidents/events';
import type { LiveEventNotice } from '../live-events/live-event-append';

const LIVE_KIND = {
  incidentOpened: 'incident.opened',
  incidentAcknowledged: 'incident.acknowledged',
  incidentResolved: 'incident.resolved',
} as const;

/**
 * The live event of an incidents context's event (the outbox publisher appends it in the event's
 * transaction): an incident opened, acknowledged or resolved; the reminders tell no live event.
 */
export function incidentLiveNotice(event: IncidentEvent): LiveEventNotice | null {
  if (event.incidentPublicId === null) return null;
  switch (event.kind) {
    case 'incidentOpened':
    case 'incidentAcknowledged':
    case 'incidentResolved':
      return { kind: LIVE_KIND[event.kind], incidentPublicId: event.incidentPublicId };
    default:
      return null;
  }
}
