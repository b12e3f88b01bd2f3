import type { LiveEvent } from '../../domain/live-events/live-event';
import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { LiveEventLimits, LiveEventLog, LiveEventSignals } from './ports';

/** Why a stream ended on the service's side. */
export type StreamEnd = 'revoked' | 'tooSlow' | 'maxDuration';

/** Where a stream's events go (the HTTP layer's server-sent events response). */
export interface LiveEventSink {
  /** The stream is admitted: its answer starts. */
  open(): void;
  send(event: LiveEvent): void;
  /** Bytes written and not yet taken by the client. */
  buffered(): number;
  /** A line that keeps intermediaries from closing an idle stream. */
  keepAlive(): void;
  /** Says why and ends the stream. */
  end(reason: StreamEnd): void;
}

export interface FollowInput {
  /** The last event the client saw (Last-Event-ID); null starts with what happens from now. */
  readonly lastEventId: number | null;
  /** Whether the credential the stream was opened with still holds (not revoked, not expired). */
  readonly stillValid: () => Promise<boolean>;
  readonly sink: LiveEventSink;
}

export interface LiveEventStream {
  /** The client went away: stop reading and free the slot. */
  stop(): void;
}

/**
 * Opens a live event stream in the caller's scope: events of its organization, or of its customer
 * only, in commit order from `lastEventId` on. Bounded: streams per organization (429
 * eventStreamLimitReached with retryAfter), the bytes a slow client leaves unread, and the stream's
 * lifetime; ended when the credential is revoked or expires.
 */
export class FollowLiveEvents {
  private readonly openPerOrganization = new Map<number, number>();

  constructor(
    private readonly log: LiveEventLog,
    private readonly signals: LiveEventSignals,
    private readonly limits: LiveEventLimits,
  ) {}

  /** Open streams of an organization in this process. */
  openStreams(organizationId: number): number {
    return this.openPerOrganization.get(organizationId) ?? 0;
  }

  async execute(actor: Actor, input: FollowInput): Promise<LiveEventStream> {
    const organizationId = actor.scope.organizationId;
    if (this.openStreams(organizationId) >= this.limits.streamsPerOrganization) {
      throw new AppError('eventStreamLimitReached', { retryAfter: this.limits.retryAfterSeconds });
    }
    this.openPerOrganization.set(organizationId, this.openStreams(organizationId) + 1);
    let unsubscribe: (() => void) | undefined;
    let stopped = false;
    const timers: NodeJS.Timeout[] = [];
    const stop = () => {
      if (stopped) return;
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      unsubscribe?.();
      const left = this.openStreams(organizationId) - 1;
      if (left > 0) this.openPerOrganization.set(organizationId, left);
      else this.openPerOrganization.delete(organizationId);
    };
    const end = (reason: StreamEnd) => {
      if (stopped) return;
      stop();
      input.sink.end(reason);
    };
    try {
      let cursor = input.lastEventId ?? (await this.log.latestId());
      let reading: Promise<void> | undefined;
      let again = false;
      const readAll = async (): Promise<void> => {
        for (;;) {
          const events = await this.log.readAfter(actor.scope, cursor, this.limits.batchSize);
          for (const event of events) {
            if (stopped) return;
            input.sink.send(event);
            cursor = event.id;
          }
          if (input.sink.buffered() > this.limits.maxBufferedBytes) return end('tooSlow');
          if (events.length < this.limits.batchSize) return;
        }
      };
      // One read at a time; a signal during a read asks for one more after it.
      const read = () => {
        if (stopped) return;
        if (reading) {
          again = true;
          return;
        }
        reading = readAll()
          .catch(() => undefined)
          .finally(() => {
            reading = undefined;
            if (again) {
              again = false;
              read();
            }
          });
      };
      unsubscribe = await this.signals.subscribe(organizationId, { grew: read, lost: read });
      input.sink.open();
      timers.push(setTimeout(() => end('maxDuration'), this.limits.maxStreamMs));
      const recheck = () => {
        timers.push(
          setTimeout(() => {
            void input.stillValid().then(
              (valid) => {
                if (stopped) return;
                if (!valid) return end('revoked');
                input.sink.keepAlive();
                read();
                recheck();
              },
              () => !stopped && recheck(),
            );
          }, this.limits.recheckMs),
        );
      };
      recheck();
      read();
    } catch (error) {
      stop();
      throw error;
    }
    return { stop };
  }
}
