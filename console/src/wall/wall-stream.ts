import type { LiveEvent } from '../api/live-events';

/** The live event stream (GET /api/events), as the overview's EventSource reads it. */
const PATH = '/api/events';
/** A frame longer than this is not one of the service's events: the stream is dropped and opened again. */
const MAX_FRAME = 64 * 1024;
const RETRY_MS = 3_000;

export interface WallStreamHandlers {
  event(event: LiveEvent): void;
  /** The stream is open (true) or being opened again (false). */
  status(connected: boolean): void;
  /** The token was refused (401 or 403): the wall asks for another. */
  refused(): void;
}

/**
 * The live event stream read with the wall's token in the Authorization header (an EventSource
 * cannot send one, and the token must never be put in an address the server sees). One request at
 * a time; after an end or a loss it is opened again with Last-Event-ID, so nothing is missed. It
 * keeps nothing but the last event id and the part of a frame not yet ended (bounded by MAX_FRAME):
 * it can run for days. Answers the call that stops it.
 */
export function followWallEvents(token: string, handlers: WallStreamHandlers): () => void {
  let stopped = false;
  let lastEventId: string | undefined;
  let controller: AbortController | undefined;
  let retry: number | undefined;

  const dispatch = (frame: string) => {
    let kind = 'message';
    let data = '';
    for (const line of frame.split('\n')) {
      if (line.startsWith('id:')) lastEventId = line.slice(3).trim() || lastEventId;
      else if (line.startsWith('event:')) kind = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trimStart();
    }
    if (kind === 'end' || data === '') return;
    try {
      handlers.event(JSON.parse(data) as LiveEvent);
    } catch {
      // A frame that is not JSON is not one of the service's events: skipped.
    }
  };

  const read = async () => {
    controller = new AbortController();
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
    if (lastEventId) headers['last-event-id'] = lastEventId;
    const response = await fetch(PATH, { headers, credentials: 'omit', cache: 'no-store', signal: controller.signal });
    if (response.status === 401 || response.status === 403) {
      stopped = true;
      handlers.refused();
      return;
    }
    if (!response.ok || !response.body) throw new Error(`the event stream answered ${response.status}`);
    handlers.status(true);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let pending = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      pending += value.replace(/\r\n?/g, '\n');
      let end = pending.indexOf('\n\n');
      while (end >= 0) {
        dispatch(pending.slice(0, end));
        pending = pending.slice(end + 2);
        end = pending.indexOf('\n\n');
      }
      if (pending.length > MAX_FRAME) throw new Error('an event frame too long');
    }
  };

  const run = () => {
    if (stopped) return;
    read()
      .catch(() => undefined)
      .finally(() => {
        controller = undefined;
        if (stopped) return;
        handlers.status(false);
        retry = window.setTimeout(run, RETRY_MS);
      });
  };
  run();
  return () => {
    stopped = true;
    window.clearTimeout(retry);
    controller?.abort();
  };
}
