import { MAX_JSON_DEPTH } from '../shared/json-depth';
import { z } from 'zod';
import type { Provided } from '../../../application/shared/token';
import type { RequestHandler, Response } from 'express';
import { AppError, isAppError } from '../../../domain/shared/app-error';
import { IM_SEVERITIES } from '../../../domain/incident-management/im-incident';
import { AdmitImEvent } from '../../../application/incident-management/admit-im-event';
import type { ImEvent } from '../../../application/incident-management/im-event';
import { AcceptImEvents } from '../../../application/incident-management/accept-im-events';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { readJsonBody, type JsonLimits } from './json-intake';
import { IM_GATE_ERRORS } from './im-incidents.router';

export const IM_EVENTS_PATH = '/api/im/events';
/** Limits: Event ingest body (256 KB, nesting 20 levels). */
export const IM_EVENT_LIMITS: JsonLimits = { maxBytes: 256 * 1024, maxDepth: MAX_JSON_DEPTH };
/**
 * Events being committed at once in this process. Past it an event is refused with 503 unavailable
 * (safe to retry) instead of queueing behind the database without bound.
 */
export const MAX_IN_FLIGHT = 256;

const tags = ['IM ingest'] as const;
const Text = (max: number) => z.string().min(1).max(max);

/** The PagerDuty Events API v2 body; unknown fields are ignored, as PagerDuty does. */
export const PagerDutyEvent = z
  .object({
    routing_key: Text(128).meta({ description: 'The integration key of the sending integration; kept with the event' }),
    event_action: z.enum(['trigger', 'acknowledge', 'resolve']),
    dedup_key: Text(255).optional().meta({ description: 'Required to acknowledge or resolve; a trigger without one gets a fresh key' }),
    payload: z
      .object({
        summary: Text(1024),
        source: Text(255),
        severity: z.enum(IM_SEVERITIES),
        timestamp: z.string().max(64).optional(),
        component: z.string().max(255).optional(),
        group: z.string().max(255).optional(),
        class: z.string().max(255).optional(),
        custom_details: z.unknown().optional(),
      })
      .optional()
      .meta({ description: 'Required to trigger' }),
    client: z.string().max(255).optional(),
    client_url: z.string().max(2048).optional(),
    links: z.array(z.unknown()).max(50).optional(),
    images: z.array(z.unknown()).max(50).optional(),
  })
  .superRefine((event, ctx) => {
    if (event.event_action === 'trigger' && !event.payload)
      ctx.addIssue({ code: 'custom', path: ['payload'], message: 'A trigger needs a payload' });
    if (event.event_action !== 'trigger' && !event.dedup_key)
      ctx.addIssue({ code: 'custom', path: ['dedup_key'], message: `${event.event_action} needs the dedup_key` });
  })
  .meta({ id: 'PagerDutyEvent' });

/** The event a validated body stands for: its envelope fields and payload kept as the timeline's details. */
export function toImEvent(body: z.infer<typeof PagerDutyEvent>): ImEvent {
  const details: Record<string, unknown> = {
    routing_key: body.routing_key,
    ...(body.payload ?? {}),
    client: body.client,
    client_url: body.client_url,
    links: body.links,
    images: body.images,
  };
  return {
    action: body.event_action,
    dedupKey: body.dedup_key,
    summary: body.payload?.summary,
    severity: body.payload?.severity,
    source: body.payload?.source,
    details: Object.fromEntries(Object.entries(details).filter(([, value]) => value !== undefined)),
  };
}

/** The 202's message: the event is durable and its incident is decided shortly after (not yet when this is read). */
export const IM_EVENT_ACCEPTED = 'Event accepted';

const Accepted = z
  .object({
    status: z.literal('success'),
    message: z.string().meta({ description: `"${IM_EVENT_ACCEPTED}": durable, its incident decided shortly after` }),
    dedup_key: z.string(),
  })
  .meta({ id: 'ImEventAccepted' });

/**
 * What runs before the body of POST /api/im/events is read (after authentication and the IM gate):
 * the per-organization rate (429 with retryAfter, no code), the in-flight bound (503 unavailable),
 * then the body, streamed against its limits into req.body.
 */
/** What the intake needs: the organization's rate, decided before the body is read. */
export const imEventIntakeNeeds = { admitImEvent: AdmitImEvent };

export function imEventIntake(use: Provided<typeof imEventIntakeNeeds>, inFlight: EventsInFlight = eventsInFlight()): RequestHandler {
  return async (req, res, next) => {
    try {
      const caller = req.auth?.caller;
      if (!caller) throw new AppError('imAccessDenied');
      if (!inFlight.enter(res)) throw new AppError('unavailable');
      await use.admitImEvent.execute(caller.actor.scope.organizationId);
      req.body = (await readJsonBody(req, IM_EVENT_LIMITS)).value;
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** Counts a request until its connection closes; false (not counted) once MAX_IN_FLIGHT are. */
export interface EventsInFlight {
  enter(res: Response): boolean;
}

/** A bound of MAX_IN_FLIGHT events being committed (the ingest declaration, im-ingest.ts, shares one between both ways in). */
export function eventsInFlight(): EventsInFlight {
  let count = 0;
  return {
    enter(res) {
      if (count >= MAX_IN_FLIGHT) return false;
      count++;
      res.once('close', () => {
        count--;
      });
      return true;
    },
  };
}

/** Events in, in the PagerDuty Events API v2 shape: trigger, acknowledge and resolve by dedup key. */
export const imEventsRouter = defineRouter({ acceptImEvents: AcceptImEvents }, (deps, use) => {
  return new ApiRouter(deps).route({
    operationId: 'sendImEvent',
    method: 'post',
    path: IM_EVENTS_PATH,
    tags,
    summary: 'Send an event (PagerDuty Events API v2 shape)',
    description:
      "The body PagerDuty's /v2/enqueue takes, so an integration moves here by changing its URL (and sending an " +
      'organization-wide token of an admin, editor or responder). A trigger opens an incident, or, while an incident with ' +
      'its dedup_key is open, adds an occurrence to it (never a second incident); acknowledge and resolve act on the open ' +
      'incident with the dedup_key and are accepted and ignored when there is none. 202 ("Event accepted", with the dedup_key) ' +
      'means the event is durable, not yet decided: events are group-committed to an intake log (the events arriving within ' +
      '4 ms, or while the two batches before commit, at most 200, are appended by one transaction) and each is answered 202 ' +
      'only once its batch has committed; its incident is decided from that log right after (usually within a second), in ' +
      'the order the events were accepted, exactly once, also after a restart. A batch that cannot be stored answers 503 ' +
      'unavailable to its own events only (nothing of them was stored; retry). The body is JSON of at most 256 KB (413 ' +
      'payloadTooLarge) nesting at most 20 levels (422 payloadTooDeep; not JSON: 422 invalidJson). 600 events per minute per ' +
      'organization: 429 with data.retryAfter and no code (and Retry-After), decided before the body is read; the count is ' +
      'kept in each service process and written to the shared counter in batches, so with N processes a window may admit up ' +
      'to N x 20 events past 600. 503 unavailable when the event cannot be queued: nothing was stored, retry.',
    body: PagerDutyEvent,
    status: 202,
    response: Accepted,
    errors: [...IM_GATE_ERRORS, 'payloadTooLarge', 'invalidJson', 'payloadTooDeep', 'imEventRateLimited', 'unavailable'],
    handler: async ({ actor, body, req }) => {
      try {
        const accepted = await use.acceptImEvents.execute(actor.scope, toImEvent(body));
        return { status: 'success' as const, message: IM_EVENT_ACCEPTED, dedup_key: accepted.dedupKey };
      } catch (error) {
        if (isAppError(error)) throw error;
        req.log.error({ err: error }, 'event not stored');
        throw new AppError('unavailable');
      }
    },
  }).router;
});
