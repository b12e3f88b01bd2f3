import { envelopeOf, EventRefused, type DomainEvent, type EventCodec } from '../shared/domain-event';
import { TARGET_TYPES, type TargetType } from './maintenance-window';

/**
 * The maintenance context's events (version 1 each): a window was scheduled, one of its
 * occurrences started or ended. Channels hear of starts and ends, status page subscribers of all three.
 */
export const MAINTENANCE_EVENT_KINDS = ['maintenance.scheduled', 'maintenance.started', 'maintenance.ended'] as const;
export type MaintenanceEventKind = (typeof MAINTENANCE_EVENT_KINDS)[number];

interface MaintenanceEventOf<K extends MaintenanceEventKind> extends DomainEvent<K, 1> {
  readonly customerId: number | null;
  /** The window's public id. */
  readonly windowId: string;
  readonly title: string;
  /** The occurrence concerned (the first one for maintenance.scheduled). */
  readonly occurrence: { start: Date; end: Date };
  readonly targets: readonly { type: TargetType; id: string }[];
}

/** What channels and status page subscribers are told about a window. */
export type MaintenanceEvent = { [K in MaintenanceEventKind]: MaintenanceEventOf<K> }[MaintenanceEventKind];

const SUMMARY: Record<MaintenanceEventKind, string> = {
  'maintenance.scheduled': 'Maintenance scheduled',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance ended',
};

/** The one-line text of a maintenance event. */
export const maintenanceSummary = (event: MaintenanceEvent): string => `${SUMMARY[event.kind]}: ${event.title}`;

/**
 * The row: the envelope, the window's fields (`maintenanceWindowId`, `title`, `startTime`,
 * `endTime`, `targets`) and the same fields again under `data` (what a channel's message details).
 */
export const maintenanceEventCodec: EventCodec<MaintenanceEvent> = {
  kinds: MAINTENANCE_EVENT_KINDS,
  encode: (event) => {
    const summary = maintenanceSummary(event);
    const window = {
      maintenanceWindowId: event.windowId,
      title: event.title,
      startTime: event.occurrence.start.toISOString(),
      endTime: event.occurrence.end.toISOString(),
      targets: event.targets,
    };
    return {
      organizationId: event.organizationId,
      kind: event.kind,
      summary,
      payload: { ...envelopeOf(event, event.customerId, summary), ...window, data: window },
    };
  },
  decode: (kind, p) => ({
    kind,
    version: p.version1(),
    organizationId: p.integer('organizationId'),
    customerId: p.integerOrNull('customerId'),
    windowId: p.string('maintenanceWindowId'),
    title: p.string('title'),
    occurrence: { start: p.date('startTime'), end: p.date('endTime') },
    targets: p.array('targets').map(targetOf),
    occurredAt: p.date('occurredAt'),
  }),
};

function targetOf(value: unknown): { type: TargetType; id: string } {
  const target = (value ?? {}) as { type?: unknown; id?: unknown };
  if (!TARGET_TYPES.includes(target.type as TargetType) || typeof target.id !== 'string') {
    throw new EventRefused('maintenance: a target is not a type and an id');
  }
  return { type: target.type as TargetType, id: target.id };
}
