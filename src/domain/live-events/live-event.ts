import { LIVE_EVENT_KINDS, type LiveEventData, type LiveEventKind } from './catalogue';

export { LIVE_EVENT_KINDS, type LiveEventKind };

/**
 * What GET /api/events tells: a change the service recorded (catalogue.ts names the kinds and their
 * payloads), in commit order. `id` is the resume point (Last-Event-ID).
 */
export type LiveEvent = {
  [K in LiveEventKind]: {
    readonly id: number;
    readonly kind: K;
    readonly organizationId: number;
    /** The customer it concerns; null for the organization's own (a channel test, an attempt through its own channel), shown only to organization-wide callers. */
    readonly customerId: number | null;
    readonly data: LiveEventData<K>;
  };
}[LiveEventKind];
