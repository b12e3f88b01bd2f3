import type { EventCodec } from '../../domain/shared/domain-event';
import { incidentEventCodec, type IncidentEvent } from '../../domain/incidents/events';
import { maintenanceEventCodec, type MaintenanceEvent } from '../../domain/maintenance/events';
import { serviceLevelEventCodec, type ServiceLevelEvent } from '../../domain/service-levels/events';
import { watchedAssetEventCodec, type WatchedAssetEvent } from '../../domain/tenancy/events';
import { identityEventCodec, type IdentityEvent } from '../../domain/identity/events';
import { decoderOf, type DecodedRow, type OutboxRow } from '../outbox/outbox-row';

/**
 * The event catalogue: every event a context publishes for others, each defined by its publisher
 * (docs/architecture.md, "Events between contexts"). The outbox's readers read rows through
 * `decodePublishedEvent` only, and get the publisher's type.
 */
export type PublishedEvent = IncidentEvent | MaintenanceEvent | ServiceLevelEvent | WatchedAssetEvent | IdentityEvent;
export type PublishedEventKind = PublishedEvent['kind'];

const CODECS = [
  incidentEventCodec,
  maintenanceEventCodec,
  serviceLevelEventCodec,
  watchedAssetEventCodec,
  identityEventCodec,
] as readonly EventCodec<PublishedEvent>[];

/** The kinds of the catalogue, every publisher's. */
export const PUBLISHED_EVENT_KINDS: readonly PublishedEventKind[] = CODECS.flatMap((codec) => codec.kinds);

/** The one decoder of outbox rows: the publisher's event, or the row refused with its reason (an unknown kind or version, a payload that does not fit). */
export const decodePublishedEvent: (row: OutboxRow) => DecodedRow<PublishedEvent> = decoderOf(CODECS);

/** What a reader does with a refused row: logs it (the row stays in the outbox, set aside). */
export type RefusedEvents = (refused: readonly { id: number; kind: string; reason: string }[]) => void;

export type { DecodedRow, OutboxRow };
