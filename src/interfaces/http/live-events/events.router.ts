import type { Response } from 'express';
import { z } from 'zod';
import 'zod-openapi';
import { FollowLiveEvents, type LiveEventSink, type StreamEnd } from '../../../application/live-events/follow-live-events';
import { LIVE_EVENT_KINDS, type LiveEvent } from '../../../domain/live-events/live-event';
import { liveEventKindsText } from '../../../domain/live-events/describe';
import { isAppError } from '../../../domain/shared/app-error';
import { ApiRouter } from '../shared/api-router';
import { credentialOf } from '../shared/http-context';
import { streaming } from '../shared/held-by-response';
import { defineRouter } from '../shared/router-deps';

const EventId = z
  .string()
  .regex(/^\d{1,15}$/)
  .meta({ description: 'The id of the last event the client saw: the stream goes on after it (ids are in commit order)' });

const LastEventIdHeader = z.object({ 'last-event-id': EventId.optional() });

/** The stream's description: its framing here, its kinds from the catalogue (domain/live-events/catalogue.ts). */
const STREAM_DESCRIPTION =
  'Server-sent events (text/event-stream) of what the service records, as it commits, whichever process recorded it: ' +
  "the caller's organization, or only its customer for customer-bound callers. Each event has `id` (resume point), " +
  '`event` (its kind) and `data` (JSON: kind, customerId, data). Kinds: ' +
  liveEventKindsText() +
  ' Resume with the `Last-Event-ID` header (a browser EventSource sends it on reconnecting) or the ' +
  '`lastEventId` query; without either, the stream starts with what happens from now. Events are kept a day. A comment line ' +
  'keeps an idle stream open every few seconds. Bounds: open streams per organization (beyond: 429 eventStreamLimitReached ' +
  'with data.retryAfter), an hour per stream, and a client that leaves about a megabyte unread; the stream then ends with an ' +
  '`end` event (data.reason maxDuration, tooSlow or revoked) and the client reconnects with Last-Event-ID. A revoked or expired ' +
  'session or token ends the stream within seconds (reason revoked).';

/** GET /api/events: the live event stream of the caller's scope. */
export const liveEventsRouter = defineRouter({ followLiveEvents: FollowLiveEvents }, (deps, use) =>
  new ApiRouter(deps).route({
    operationId: 'streamEvents',
    method: 'get',
    path: '/api/events',
    tags: ['Live events'],
    summary: "The caller's live events (server-sent events)",
    description: STREAM_DESCRIPTION,
    query: z.object({ lastEventId: EventId.optional() }).strict(),
    headers: LastEventIdHeader,
    response: z.string().meta({ description: `text/event-stream; event kinds: ${LIVE_EVENT_KINDS.join(', ')}` }),
    responseType: 'text/event-stream',
    errors: ['eventStreamLimitReached'],
    handler: async ({ req, res, query, actor }) => {
      const header = LastEventIdHeader.parse({ 'last-event-id': req.get('last-event-id') })['last-event-id'];
      const lastEventId = header ?? query.lastEventId;
      const { token } = credentialOf(req);
      const stillValid = async () => {
        try {
          await deps.authenticate.execute(token);
          return true;
        } catch (error) {
          if (isAppError(error) && error.code === 'unauthorized') return false;
          throw error;
        }
      };
      const stream = await use.followLiveEvents.execute(actor, {
        lastEventId: lastEventId === undefined ? null : Number(lastEventId),
        stillValid,
        sink: eventStreamSink(res),
      });
      res.on('close', () => stream.stop());
      if (res.closed) stream.stop();
    },
  }),
);

/** Writes events as text/event-stream; the headers go at once, so a client knows the stream is open. */
function eventStreamSink(res: Response): LiveEventSink {
  return {
    open: () => {
      res.status(200);
      res.setHeader('content-type', 'text/event-stream; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      res.setHeader('x-accel-buffering', 'no');
      res.flushHeaders();
      res.write('retry: 2000\n: connected\n\n');
      streaming(res); // an open stream is not a request in flight: its scope and caller are let go
    },
    send: (event: LiveEvent) => {
      const data = JSON.stringify({ kind: event.kind, customerId: event.customerId, data: event.data });
      res.write(`id: ${event.id}\nevent: ${event.kind}\ndata: ${data}\n\n`);
    },
    buffered: () => res.writableLength,
    keepAlive: () => void res.write(': keep-alive\n\n'),
    end: (reason: StreamEnd) => {
      res.end(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
    },
  };
}
