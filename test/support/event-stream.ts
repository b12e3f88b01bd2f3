import { testServer } from './test-server';

export interface StreamedEvent {
  id: string | undefined;
  event: string;
  data: any;
}

/**
 * A client of GET /api/events over real HTTP: it parses the server-sent events as they arrive, so a
 * test waits for the next event (or for none) and closes the stream when done.
 */
export class EventStreamClient {
  readonly events: StreamedEvent[] = [];
  private taken = 0;
  private waiters: Array<() => void> = [];
  ended = false;

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly body: any,
    private readonly abort: AbortController,
  ) {}

  /** Opens a stream as `token` (Bearer) or `cookie`; a refusal is answered with its parsed envelope in `body`. */
  static async open(options: { token?: string; cookie?: string; lastEventId?: string; query?: string } = {}): Promise<EventStreamClient> {
    const { url } = await testServer();
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.cookie) headers.cookie = options.cookie;
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const abort = new AbortController();
    const response = await fetch(`${url}/api/events${options.query ? `?${options.query}` : ''}`, { headers, signal: abort.signal });
    if (!response.ok) return new EventStreamClient(response.status, response.headers, await response.json(), abort);
    const client = new EventStreamClient(response.status, response.headers, undefined, abort);
    void client.pump(response.body!);
    return client;
  }

  /** The next event not yet taken, within `withinMs`. */
  async next(withinMs = 5_000): Promise<StreamedEvent> {
    const deadline = Date.now() + withinMs;
    while (this.taken >= this.events.length) {
      if (this.ended) throw new Error('the stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no event within ${withinMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.events[this.taken++]!;
  }

  /** The next event of `kind`, skipping others (the `monitor.stateChanged` an incident brings, say). */
  async nextOf(kind: string, withinMs = 5_000): Promise<StreamedEvent> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const event = await this.next(Math.max(1, deadline - Date.now()));
      if (event.event === kind) return event;
    }
  }

  close(): void {
    this.abort.abort();
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          this.take(block);
        }
      }
    } catch {
      /* aborted by close() */
    }
    this.ended = true;
    this.wake();
  }

  private take(block: string): void {
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line.startsWith('retry:')) continue;
      const colon = line.indexOf(':');
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) return;
    this.events.push({ id, event, data: JSON.parse(data.join('\n')) });
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
