/**
 * The one catalogue of live events (GET /api/events): each kind, what it tells, whose scope it goes
 * to, and its payload's fields. Everything else derives from it: the TypeScript types of the events
 * (live-event.ts), the SQL that builds each kind's payload (infrastructure/live-events, one field
 * per field named here, checked by the compiler), the stream's OpenAPI description and
 * docs/live-events.md, and the console's types. Adding a kind: docs/architecture.md, "Adding a
 * live-event kind".
 */

type FieldType = 'string' | 'integer' | 'timestamp';

/** One field of a kind's payload: its JSON type, whether it may be null, its values when they are few. */
export interface LiveEventField {
  readonly type: FieldType;
  readonly nullable?: true;
  readonly values?: readonly string[];
  readonly description: string;
}

export interface LiveEventDescriptor {
  /** What the event tells, in one sentence. */
  readonly description: string;
  /** Whose it is (customerId): the rule of its scope. */
  readonly scope: string;
  readonly fields: Readonly<Record<string, LiveEventField>>;
}

const MONITOR_STATES = ['up', 'down', 'unknown', 'paused'] as const;
const INCIDENT_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
const INCIDENT_ORIGINS = ['automatic', 'manual'] as const;

const incidentFields = {
  incidentId: { type: 'string', description: "The incident's public id" },
  monitorId: { type: 'string', description: "Its monitor's public id" },
  status: { type: 'string', values: INCIDENT_STATUSES, description: "The incident's status after the change" },
  title: { type: 'string', description: "The incident's title" },
  origin: { type: 'string', values: INCIDENT_ORIGINS, description: 'Opened by the alert rules (automatic) or by a person (manual)' },
  at: { type: 'timestamp', description: 'When it was recorded' },
} as const satisfies Record<string, LiveEventField>;

const incident = (description: string) =>
  ({ description, scope: "the incident's customer", fields: incidentFields }) as const satisfies LiveEventDescriptor;

export const LIVE_EVENT_CATALOGUE = {
  'monitor.stateChanged': {
    description:
      "A monitor's state changed as the API's currentState tells it: down while an incident is open, unknown while too few live locations can decide it, paused, up otherwise",
    scope: "the monitor's customer",
    fields: {
      monitorId: { type: 'string', description: "The monitor's public id" },
      kind: { type: 'string', description: "The monitor's kind (website, dns, tcp, ...)" },
      name: { type: 'string', description: "The monitor's name" },
      state: { type: 'string', values: MONITOR_STATES, description: 'Its state after the change' },
      at: { type: 'timestamp', description: 'When it was recorded' },
    },
  },
  'incident.opened': incident('An incident was opened (by the alert rules or by a person)'),
  'incident.acknowledged': incident('An incident was acknowledged'),
  'incident.resolved': incident('An incident was resolved'),
  'incident.updated': incident("An update was posted to an incident's timeline (`at`: the update's time)"),
  'notification.deliveryAttempted': {
    description: 'A notification was sent (or tried) through a channel, or as a direct message',
    scope:
      "the channel's: an attempt through the organization's own channel is the organization's (customerId null) and never reaches a customer-bound caller; a direct message's is its customer's",
    fields: {
      deliveryId: { type: 'string', description: "The delivery's id" },
      channelId: { type: 'string', nullable: true, description: "The channel's public id (null for a direct message)" },
      channelType: { type: 'string', nullable: true, description: "The channel's type" },
      event: { type: 'string', description: 'The event told (incident.opened, alert.manual, ...)' },
      incidentId: { type: 'string', nullable: true, description: 'The incident concerned (its public id), if any' },
      attempt: { type: 'integer', description: 'The attempt number (1 for the first)' },
      outcome: { type: 'string', description: "The attempt's outcome (delivered, failed, ...)" },
      statusCode: { type: 'integer', nullable: true, description: "The receiver's HTTP status, when it answered one" },
      at: { type: 'timestamp', description: 'When the attempt was made' },
    },
  },
} as const satisfies Readonly<Record<string, LiveEventDescriptor>>;

export type LiveEventKind = keyof typeof LIVE_EVENT_CATALOGUE;
/** The kinds, in the catalogue's order. */
export const LIVE_EVENT_KINDS = Object.keys(LIVE_EVENT_CATALOGUE) as readonly LiveEventKind[];

type ValueOf<F> = F extends { values: readonly (infer V)[] } ? V : F extends { type: 'integer' } ? number : string;
type FieldValue<F> = F extends { nullable: true } ? ValueOf<F> | null : ValueOf<F>;

/** The payload (`data`) of a kind, as the catalogue describes it (a timestamp is an ISO string). */
export type LiveEventData<K extends LiveEventKind> = {
  readonly [F in keyof (typeof LIVE_EVENT_CATALOGUE)[K]['fields']]: FieldValue<(typeof LIVE_EVENT_CATALOGUE)[K]['fields'][F]>;
};

/** The names of a kind's payload fields. */
export type LiveEventFieldName<K extends LiveEventKind> = keyof (typeof LIVE_EVENT_CATALOGUE)[K]['fields'] & string;
