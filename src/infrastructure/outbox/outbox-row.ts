import { EventRefused, PayloadReader, type DomainEvent, type EventCodec } from '../../domain/shared/domain-event';

/** An outbox row as its readers select it: `SELECT id, organization_id, kind, payload`. */
export interface OutboxRow {
  readonly id: string | number;
  readonly organization_id: number;
  readonly kind: string;
  readonly payload: Record<string, unknown> | null;
}

/** A row read back: the event its publisher defined, or why it is none the reader knows. */
export type DecodedRow<E extends DomainEvent> =
  | { readonly ok: true; readonly id: number; readonly event: E }
  | { readonly ok: false; readonly id: number; readonly kind: string; readonly reason: string };

/**
 * Turns rows into events with the publishers' codecs: a row whose kind no codec knows, whose version
 * its publisher does not define, or whose payload does not fit is refused with its reason (never
 * passed on as untyped JSON). The row's organization must be the event's.
 */
export function decoderOf<E extends DomainEvent>(codecs: readonly EventCodec<E>[]): (row: OutboxRow) => DecodedRow<E> {
  const byKind = new Map<string, EventCodec<E>>();
  for (const codec of codecs) {
    for (const kind of codec.kinds) {
      if (byKind.has(kind)) throw new Error(`two publishers define the event ${kind}`);
      byKind.set(kind, codec);
    }
  }
  return (row) => {
    const id = Number(row.id);
    const codec = byKind.get(row.kind);
    if (!codec) return { ok: false, id, kind: row.kind, reason: `unknown event ${row.kind}` };
    if (row.payload === null || typeof row.payload !== 'object')
      return { ok: false, id, kind: row.kind, reason: `${row.kind}: no payload` };
    try {
      const event = codec.decode(row.kind as E['kind'], new PayloadReader(row.kind, row.payload));
      if (event.organizationId !== Number(row.organization_id)) throw new EventRefused(`${row.kind}: organizationId is not the row's`);
      return { ok: true, id, event };
    } catch (error) {
      if (!(error instanceof EventRefused)) throw error;
      return { ok: false, id, kind: row.kind, reason: error.message };
    }
  };
}
