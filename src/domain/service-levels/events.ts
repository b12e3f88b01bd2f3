import { envelopeOf, type DomainEvent, type EventCodec } from '../shared/domain-event';
import type { ServiceLevelObjective } from './objective';

/**
 * The service-levels context's events (version 1 each): an objective's error budget started or
 * stopped burning fast. Channels of the organization and the customer hear of them (a monitor's
 * overrides apply to a monitor's objective).
 */
export const SERVICE_LEVEL_EVENT_KINDS = ['slo.burning', 'slo.recovered'] as const;
export type ServiceLevelEventKind = (typeof SERVICE_LEVEL_EVENT_KINDS)[number];

interface ServiceLevelEventOf<K extends ServiceLevelEventKind> extends DomainEvent<K, 1> {
  readonly customerId: number;
  /** The monitor of a monitor's objective (null for a customer's). */
  readonly monitorId: number | null;
  readonly summary: string;
  /** The objective (objectiveId, name, target, window, monitorPublicId) and the measures at the change. */
  readonly data: Readonly<Record<string, unknown>>;
}

export type ServiceLevelEvent = { [K in ServiceLevelEventKind]: ServiceLevelEventOf<K> }[ServiceLevelEventKind];

const SUMMARY: Record<ServiceLevelEventKind, string> = {
  'slo.burning': 'Error budget burning fast',
  'slo.recovered': 'Error budget no longer burning fast',
};

/** The event of an objective's burn change, with the measures (`rules`, `burnRates`, attainment, budget) it was told with. */
export function burnEventOf(
  kind: ServiceLevelEventKind,
  o: ServiceLevelObjective,
  occurredAt: Date,
  measures: Readonly<Record<string, unknown>>,
): ServiceLevelEvent {
  return {
    kind,
    version: 1,
    organizationId: o.organizationId,
    customerId: o.customerId,
    monitorId: o.subject.type === 'monitor' ? o.subject.monitorId : null,
    occurredAt,
    summary: `${SUMMARY[kind]}: ${o.name} (target ${o.target} %)`,
    data: {
      objectiveId: o.publicId,
      name: o.name,
      target: o.target,
      window: o.window,
      ...(o.subject.type === 'monitor' ? { monitorPublicId: o.subject.monitorPublicId } : {}),
      ...measures,
    },
  };
}

/** The row: the envelope, `monitorId` and `data`. */
export const serviceLevelEventCodec: EventCodec<ServiceLevelEvent> = {
  kinds: SERVICE_LEVEL_EVENT_KINDS,
  encode: (event) => ({
    organizationId: event.organizationId,
    kind: event.kind,
    summary: event.summary,
    payload: { ...envelopeOf(event, event.customerId, event.summary), monitorId: event.monitorId, data: event.data },
  }),
  decode: (kind, p) => ({
    kind,
    version: p.version1(),
    organizationId: p.integer('organizationId'),
    customerId: p.integer('customerId'),
    monitorId: p.integerOrNull('monitorId'),
    occurredAt: p.date('occurredAt'),
    summary: p.string('summary'),
    data: p.record('data'),
  }),
};
