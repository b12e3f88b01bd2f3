import { envelopeOf, type DomainEvent, type EventCodec } from '../shared/domain-event';

/**
 * The incidents context's events: the alert rules' and people's changes to incidents and the
 * certificate and blocklist reminders, published in the transaction of the change (version 1 each).
 * The notifications context routes them to channels (as `incident.opened`, ...); status pages tell
 * their subscribers of openings and resolutions.
 */
export const INCIDENT_EVENT_KINDS = [
  'incidentOpened',
  'incidentAcknowledged',
  'incidentResolved',
  'reminderDue',
  'sslExpiryReminder',
  'sslExpired',
  'dnsblReminder',
] as const;
export type IncidentEventKind = (typeof INCIDENT_EVENT_KINDS)[number];

interface IncidentEventOf<K extends IncidentEventKind> extends DomainEvent<K, 1> {
  readonly customerId: number;
  readonly monitorId: number;
  /** The incident concerned (null for certificate and blocklist reminders). */
  readonly incidentPublicId: string | null;
  /** A one-line human summary, for channels that show text. */
  readonly summary: string;
  /** The details receivers are told (a webhook's `data`): locations, reason, origin, ... */
  readonly data: Readonly<Record<string, unknown>>;
}

export type IncidentEvent = { [K in IncidentEventKind]: IncidentEventOf<K> }[IncidentEventKind];

/** The row: the envelope, `monitorId`, `incidentId` (the public id) and `data`. */
export const incidentEventCodec: EventCodec<IncidentEvent> = {
  kinds: INCIDENT_EVENT_KINDS,
  encode: (event) => ({
    organizationId: event.organizationId,
    kind: event.kind,
    summary: event.summary,
    payload: {
      ...envelopeOf(event, event.customerId, event.summary),
      monitorId: event.monitorId,
      incidentId: event.incidentPublicId,
      data: event.data,
    },
  }),
  decode: (kind, p) => ({
    kind,
    version: p.version1(),
    organizationId: p.integer('organizationId'),
    customerId: p.integer('customerId'),
    monitorId: p.integer('monitorId'),
    incidentPublicId: p.stringOrNull('incidentId'),
    occurredAt: p.date('occurredAt'),
    summary: p.string('summary'),
    data: p.record('data'),
  }),
};
