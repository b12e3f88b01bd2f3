import type { LiveEvent } from '../../domain/live-events/live-event';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { token } from '../shared/token';

/** The ordered log of live events (ids in commit order), read within a caller's scope. */
export interface LiveEventLog {
  /** The newest id of the whole log (0 when empty): where a stream without Last-Event-ID starts. */
  latestId(): Promise<number>;
  /** At most `limit` events of the scope with an id above `afterId`, oldest first. */
  readAfter(scope: TenantScope, afterId: number, limit: number): Promise<LiveEvent[]>;
  /** Forgets events older than `before`. */
  prune(before: Date): Promise<number>;
}
export const LIVE_EVENT_LOG = token<LiveEventLog>('LiveEventLog');

/**
 * Word that an organization's log grew, from whichever process committed it. `subscribe` answers
 * the call that stops listening; `lost` is called when signals may have been missed.
 */
export interface LiveEventSignals {
  subscribe(organizationId: number, handlers: { grew(): void; lost(): void }): Promise<() => void>;
  close(): Promise<void>;
}
export const LIVE_EVENT_SIGNALS = token<LiveEventSignals>('LiveEventSignals');

/** The bounds of the event stream. */
export interface LiveEventLimits {
  /** Open streams per organization in one service process; one more is refused (429). */
  readonly streamsPerOrganization: number;
  /** Events one stream reads per round; a client that falls further behind catches up round by round. */
  readonly batchSize: number;
  /** Events written to one stream and not yet taken by its client (bytes buffered): beyond this the stream is closed. */
  readonly maxBufferedBytes: number;
  /** How long one stream may stay open; the client reconnects with Last-Event-ID. */
  readonly maxStreamMs: number;
  /** How often a stream checks that its credential still holds (revoked, expired), and reads the log even without a signal. */
  readonly recheckMs: number;
  /** Seconds a refused client is asked to wait (data.retryAfter). */
  readonly retryAfterSeconds: number;
}
export const LIVE_EVENT_LIMITS = token<LiveEventLimits>('LiveEventLimits');

export const DEFAULT_LIVE_EVENT_LIMITS: LiveEventLimits = {
  streamsPerOrganization: 50,
  batchSize: 200,
  maxBufferedBytes: 1024 * 1024,
  maxStreamMs: 60 * 60_000,
  recheckMs: 5_000,
  retryAfterSeconds: 10,
};
