import type { Request, RequestHandler, Response } from 'express';
import { createHash } from 'node:crypto';
import { AppError, isAppError } from '../../../domain/shared/app-error';
import { AdmitImEvent } from '../../../application/incident-management/admit-im-event';
import { AcceptImEvents } from '../../../application/incident-management/accept-im-events';
import type { Provided } from '../../../application/shared/token';
import { customDomainOf } from '../shared/http-context';
import type { HostAdmission } from '../shared/router-deps';
import { appErrorAnswer } from '../shared/error-handler';
import { errorEnvelope } from '../shared/envelope';
import { jsonDepthOver } from '../shared/json-depth';
import { findUnstorableText, unstorableTextError } from '../shared/storable-text';
import { jsonRefusal, type JsonLimits } from './json-intake';
import { IM_EVENTS_PATH, IM_EVENT_ACCEPTED, IM_EVENT_LIMITS, PagerDutyEvent, toImEvent, type EventsInFlight } from './im-events.router';

/** What the light route needs: the organization's rate (in memory) and the intake's group committer. */
export const imEventFastPathNeeds = { admitImEvent: AdmitImEvent, acceptImEvents: AcceptImEvents };

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * POST /api/im/events with a bearer token, answered before the host's body and cookie parsers, its
 * ORM request context, audit and route table (the way status page views are): first the refusal from
 * memory by the token's hash (a token admitted for its organization in the last few seconds whose
 * window is used up: 429 before authentication, AdmitImEvent.refuseByCredential), then the host's admission
 * chain (authentication by the caller cache, the access gates, the IM gate), the in-flight bound, the
 * rate decided in memory (a refusal is a pre-built 429 sent before any of the body is read), the
 * body read whole under its size limit and parsed by `JSON.parse` (the streaming tokenizer only
 * tells why a refused text is refused), the schema built once, then the event handed to the intake's
 * group committer and 202 sent once its batch is committed to the intake log. Anything else (a session cookie, no
 * credential, a custom domain) goes the usual way, to the same rate, committer and answers.
 */
export function imEventFastPath(use: Provided<typeof imEventFastPathNeeds>, host: HostAdmission, inFlight: EventsInFlight): RequestHandler {
  const refusals = new Map<number, Buffer>();
  const refusal = (retryAfter: number, url: string): Buffer => {
    const cached = url === IM_EVENTS_PATH ? refusals.get(retryAfter) : undefined;
    if (cached) return cached;
    const { status, data, message } = appErrorAnswer(new AppError('imEventRateLimited', { retryAfter }));
    const built = Buffer.from(JSON.stringify(errorEnvelope(url, status, data, message)));
    if (url === IM_EVENTS_PATH) refusals.set(retryAfter, built);
    return built;
  };

  const refuse = (res: Response, retryAfter: number, url: string) => {
    const body = refusal(retryAfter, url);
    res.writeHead(429, { 'content-type': JSON_TYPE, 'content-length': body.length, 'retry-after': String(retryAfter) });
    res.end(body);
  };

  return (req, res, next) => {
    const authorization = req.headers.authorization;
    if (req.method !== 'POST' || req.path !== IM_EVENTS_PATH || !authorization || customDomainOf(res)) return next();
    const credential = bearerDigest(authorization);
    const known = credential === null ? null : use.admitImEvent.refuseByCredential(credential);
    if (known !== null) return refuse(res, known, req.originalUrl);
    void (async () => {
      // The host's one admission chain: the caller authenticated, the access gates, the IM gate.
      await host.admit(req, res);
      const caller = req.auth?.caller;
      if (!caller) throw req.auth?.failure ?? new AppError('imAccessDenied');
      if (!inFlight.enter(res)) throw new AppError('unavailable');
      const organizationId = caller.actor.scope.organizationId;
      if (credential !== null) use.admitImEvent.credentialAdmitted(credential, organizationId);
      let refused = use.admitImEvent.decide(organizationId);
      if (refused !== null && typeof refused === 'object') refused = await refused;
      if (refused !== null) return refuse(res, refused, req.originalUrl);
      const value = await readBufferedJson(req, IM_EVENT_LIMITS);
      const parsed = PagerDutyEvent.safeParse(value);
      if (!parsed.success) throw parsed.error;
      let accepted;
      try {
        accepted = await use.acceptImEvents.execute(caller.actor.scope, toImEvent(parsed.data));
      } catch (error) {
        if (isAppError(error)) throw error;
        req.log.error({ err: error }, 'event not stored');
        throw new AppError('unavailable');
      }
      const body = Buffer.from(`{"status":"success","message":"${IM_EVENT_ACCEPTED}","dedup_key":${JSON.stringify(accepted.dedupKey)}}`);
      res.writeHead(202, { 'content-type': JSON_TYPE, 'content-length': body.length });
      res.end(body);
    })().catch(next);
  };
}

/** The hash of a bearer token (what the rate's memory keeps, never the token), or null for another scheme. */
function bearerDigest(authorization: string): string | null {
  if (authorization.length < 8 || authorization.slice(0, 7).toLowerCase() !== 'bearer ') return null;
  return createHash('sha256').update(authorization.slice(7).trim()).digest('base64');
}

/**
 * The whole body under its byte limit (413 payloadTooLarge at once when Content-Length says so, or
 * as soon as the count passes it), parsed by `JSON.parse`, held to the nesting limit and to text
 * PostgreSQL can keep. A refused text is refused as the streaming reader would (jsonRefusal).
 */
export function readBufferedJson(req: Request, limits: JsonLimits): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) return Promise.reject(refuse(req, new AppError('payloadTooLarge')));
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') {
    return Promise.reject(refuse(req, new AppError('invalidJson', {}, 'Content-Encoding is not supported; send plain JSON')));
  }
  return new Promise<unknown>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let settled = false;
    const finish = (error: unknown, value?: unknown) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      if (error) reject(refuse(req, error));
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limits.maxBytes) finish(new AppError('payloadTooLarge'));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
      let value: unknown;
      try {
        value = JSON.parse(body.toString('utf8'));
      } catch {
        return finish(jsonRefusal(body, limits));
      }
      if (jsonDepthOver(value, limits.maxDepth)) return finish(jsonRefusal(body, limits));
      const unstorable = findUnstorableText(value);
      if (unstorable) return finish(unstorableTextError(unstorable, 'request body'));
      finish(undefined, value);
    };
    const onError = (error: unknown) => finish(error instanceof AppError ? error : new AppError('invalidJson'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** The unread rest of a refused body is discarded so the connection can answer. */
function refuse(req: Request, error: unknown): unknown {
  req.resume();
  return error;
}
