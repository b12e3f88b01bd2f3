import type { LiveEventLog, LiveEventSignals } from '../../../src/application/live-events/ports';
import type { LiveEventSink, StreamEnd } from '../../../src/application/live-events/follow-live-events';
import type { LiveEvent, LiveEventKind } from '../../../src/domain/live-events/live-event';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';

/** The live event log in memory: ids in append order, read within a scope as the SQL does. */
export class InMemoryLiveEventLog implements LiveEventLog {
  readonly events: LiveEvent[] = [];

  append(
    organizationId: number,
    customerId: number | null,
    kind: LiveEventKind = 'incident.opened',
    data: Record<string, unknown> = {},
  ): LiveEvent {
    const event = { id: this.events.length + 1, organizationId, customerId, kind, data } as LiveEvent;
    this.events.push(event);
    return event;
  }

  latestId(): Promise<number> {
    return Promise.resolve(this.events.length);
  }

  readAfter(scope: TenantScope, afterId: number, limit: number): Promise<LiveEvent[]> {
    return Promise.resolve(
      this.events
        .filter((e) => e.id > afterId && e.organizationId === scope.organizationId)
        .filter((e) => scope.customerId === null || e.customerId === scope.customerId)
        .slice(0, limit),
    );
  }

  prune(): Promise<number> {
    return Promise.resolve(0);
  }
}

/** Signals a test sends by hand (`grew(organizationId)`), as the database's notices would. */
export class ManualLiveEventSignals implements LiveEventSignals {
  private readonly subscribers: Array<{ organizationId: number; handlers: { grew(): void; lost(): void } }> = [];

  subscribe(organizationId: number, handlers: { grew(): void; lost(): void }): Promise<() => void> {
    const entry = { organizationId, handlers };
    this.subscribers.push(entry);
    return Promise.resolve(() => this.subscribers.splice(this.subscribers.indexOf(entry), 1));
  }

  grew(organizationId: number): void {
    for (const s of this.subscribers) if (s.organizationId === organizationId) s.handlers.grew();
  }

  get count(): number {
    return this.subscribers.length;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A stream's receiving end: what it was sent, how it ended, and how much its client left unread. */
export class RecordingSink implements LiveEventSink {
  opened = false;
  readonly sent: LiveEvent[] = [];
  ended: StreamEnd | undefined;
  keepAlives = 0;
  unread = 0;

  open(): void {
    this.opened = true;
  }
  send(event: LiveEvent): void {
    this.sent.push(event);
  }
  buffered(): number {
    return this.unread;
  }
  keepAlive(): void {
    this.keepAlives++;
  }
  end(reason: StreamEnd): void {
    this.ended = reason;
  }
}
