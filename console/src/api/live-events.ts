import type { operations } from './schema';
import { LIVE_EVENT_KINDS, type LiveEventData, type LiveEventKind } from '../../../src/domain/live-events/catalogue';

export type { LiveEventKind };

/** An event as GET /api/events sends it (the SSE message's data): its kind and payload from the service's catalogue. */
export type LiveEvent = {
  [K in LiveEventKind]: { kind: K; customerId: number | null; data: LiveEventData<K> };
}[LiveEventKind];

const KINDS = LIVE_EVENT_KINDS;

/** The stream's operation: the build fails if the API stops offering it. */
type StreamOperation = operations['streamEvents'];
const PATH: StreamOperation extends { responses: { 200: unknown } } ? '/api/events' : never = '/api/events';

type Listener = (event: LiveEvent) => void;
type StatusListener = (connected: boolean) => void;

/**
 * One EventSource for the whole console (a browser keeps few connections per host), shared by every
 * screen that listens. The browser reconnects by itself and sends Last-Event-ID, so nothing is missed
 * across a short loss; a stream the service ended (an hour passed, the session ended) is opened again.
 */
class LiveEvents {
  private source: EventSource | undefined;
  private readonly listeners = new Set<Listener>();
  private readonly statusListeners = new Set<StatusListener>();
  private lastEventId: string | undefined;
  private retry: number | undefined;

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    this.open();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.close();
    };
  }

  onStatus(listener: StatusListener): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  close(): void {
    window.clearTimeout(this.retry);
    this.source?.close();
    this.source = undefined;
  }

  private open(): void {
    if (this.source) return;
    const url = this.lastEventId ? `${PATH}?lastEventId=${encodeURIComponent(this.lastEventId)}` : PATH;
    const source = new EventSource(url, { withCredentials: true });
    this.source = source;
    source.onopen = () => this.statusListeners.forEach((l) => l(true));
    source.onerror = () => {
      this.statusListeners.forEach((l) => l(false));
      // A refused stream (429, 401) is closed by the browser: try again a little later.
      if (source.readyState === EventSource.CLOSED) this.reopenLater();
    };
    for (const kind of KINDS) {
      source.addEventListener(kind, (message: MessageEvent<string>) => {
        this.lastEventId = message.lastEventId || this.lastEventId;
        const event = JSON.parse(message.data) as LiveEvent;
        this.listeners.forEach((l) => l(event));
      });
    }
    source.addEventListener('end', () => {
      source.close();
      this.reopenLater();
    });
  }

  private reopenLater(): void {
    this.source = undefined;
    window.clearTimeout(this.retry);
    this.retry = window.setTimeout(() => {
      if (this.listeners.size > 0) this.open();
    }, 3_000);
  }
}

export const liveEvents = new LiveEvents();
