import { envelopeOf, type DomainEvent, type EventCodec } from '../shared/domain-event';
import type { WatchEvent, WatchMark } from './watch-events';

/**
 * The tenancy context's events (version 1 each): a customer's domain nears or passes its expiry, a
 * customer's IP is listed on (or cleared from) blocklists. Written with the watch result that found
 * it; channels hear of them, and a delivery sets the record's lastNotified* mark (`watch`).
 */
export const WATCH_EVENT_KINDS = ['domain.expiring', 'domain.expired', 'ip.listed', 'ip.clean'] as const;
export type WatchEventKind = (typeof WATCH_EVENT_KINDS)[number];
const MARKS: readonly WatchMark[] = ['warning', 'error', 'expired', 'listed', 'clean'];

interface WatchedAssetEventOf<K extends WatchEventKind> extends DomainEvent<K, 1> {
  readonly customerId: number;
  readonly summary: string;
  /** What receivers are told (the webhook's `data`). */
  readonly data: Readonly<Record<string, unknown>>;
  /** The record (`customer_domains` or `customer_ips` id) and the lastNotified* mark a delivery sets. */
  readonly watch: { readonly type: 'domain' | 'ip'; readonly id: number; readonly mark: WatchMark };
}

export type WatchedAssetEvent = { [K in WatchEventKind]: WatchedAssetEventOf<K> }[WatchEventKind];

/** The published event of a watch decision's event, for a customer's domain or IP. */
export const watchedAssetEventOf = (
  organizationId: number,
  customerId: number,
  asset: { type: 'domain' | 'ip'; id: number },
  e: WatchEvent,
): WatchedAssetEvent => ({
  kind: e.kind,
  version: 1,
  organizationId,
  customerId,
  occurredAt: e.occurredAt,
  summary: e.summary,
  data: e.data,
  watch: { ...asset, mark: e.mark },
});

/** The row: the envelope, `monitorId` and `incidentId` (both null), `data` and `watch`. */
export const watchedAssetEventCodec: EventCodec<WatchedAssetEvent> = {
  kinds: WATCH_EVENT_KINDS,
  encode: (event) => ({
    organizationId: event.organizationId,
    kind: event.kind,
    summary: event.summary,
    payload: {
      ...envelopeOf(event, event.customerId, event.summary),
      monitorId: null,
      incidentId: null,
      data: event.data,
      watch: event.watch,
    },
  }),
  decode: (kind, p) => {
    const watch = p.nested('watch');
    return {
      kind,
      version: p.version1(),
      organizationId: p.integer('organizationId'),
      customerId: p.integer('customerId'),
      occurredAt: p.date('occurredAt'),
      summary: p.string('summary'),
      data: p.record('data'),
      watch: { type: watch.oneOf('type', ['domain', 'ip'] as const), id: watch.integer('id'), mark: watch.oneOf('mark', MARKS) },
    };
  },
};
