import type http from 'node:http';
import { jsonObjectOf, ScriptedReceiver, type Received } from './scripted-receiver';

/**
 * The Events API v2's event (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/ and
 * its acknowledge and resolve pages): the fields of each; any other is a wire error.
 */
const TRIGGER_FIELDS = new Set(['routing_key', 'event_action', 'dedup_key', 'payload', 'images', 'links', 'client', 'client_url']);
const CLOSE_FIELDS = new Set(['routing_key', 'event_action', 'dedup_key']);
const PAYLOAD_FIELDS = new Set(['summary', 'source', 'severity', 'timestamp', 'component', 'group', 'class', 'custom_details']);
const ACTIONS = ['trigger', 'acknowledge', 'resolve'];
const SEVERITIES = ['critical', 'error', 'warning', 'info'];
const ROUTING_KEY = /^[a-zA-Z0-9]{32}$/;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

/** An event as the receiver took it (the shared receiver's record). */
export type PagerDutyEvent = Received;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown, max = Infinity) => typeof value === 'string' && value.length > 0 && value.length <= max;

/** What is wrong with a request as an Events API v2 event: POST /v2/enqueue, JSON, each action's documented fields and bounds. */
function problemsOf(req: http.IncomingMessage, raw: string): { body: Record<string, any> | null; problems: string[] } {
  const problems: string[] = [];
  if (req.method !== 'POST') problems.push(`method ${req.method}`);
  if (req.url !== '/v2/enqueue') problems.push(`path ${req.url}`);
  if (!/^application\/json\b/.test(String(req.headers['content-type']))) problems.push(`content-type ${req.headers['content-type']}`);
  const body = jsonObjectOf(raw, problems);
  if (!body) return { body, problems };
  if (typeof body.routing_key !== 'string' || !ROUTING_KEY.test(body.routing_key)) problems.push('routing_key is not 32 characters');
  if (!ACTIONS.includes(body.event_action)) problems.push(`event_action ${JSON.stringify(body.event_action)}`);
  const trigger = body.event_action === 'trigger';
  if (trigger ? body.dedup_key !== undefined && !isText(body.dedup_key, 255) : !isText(body.dedup_key, 255))
    problems.push(`dedup_key ${JSON.stringify(body.dedup_key)}`);
  for (const key of Object.keys(body))
    if (!(trigger ? TRIGGER_FIELDS : CLOSE_FIELDS).has(key)) problems.push(`field ${key} on ${body.event_action}`);
  if (!trigger) return { body, problems };
  const payload: unknown = body.payload;
  if (!isObject(payload)) return { body, problems: [...problems, 'payload missing on trigger'] };
  for (const key of Object.keys(payload)) if (!PAYLOAD_FIELDS.has(key)) problems.push(`payload field ${key}`);
  if (!isText(payload.summary, 1024)) problems.push('payload.summary is not 1 to 1024 characters');
  if (!isText(payload.source)) problems.push('payload.source missing');
  if (!SEVERITIES.includes(payload.severity as string)) problems.push(`payload.severity ${JSON.stringify(payload.severity)}`);
  if (payload.timestamp !== undefined && !(typeof payload.timestamp === 'string' && ISO_8601.test(payload.timestamp)))
    problems.push(`payload.timestamp ${JSON.stringify(payload.timestamp)}`);
  for (const key of ['component', 'group', 'class'])
    if (payload[key] !== undefined && typeof payload[key] !== 'string') problems.push(`payload.${key} is not a string`);
  if (payload.custom_details !== undefined && !isObject(payload.custom_details)) problems.push('payload.custom_details is not an object');
  if (body.links !== undefined && !(Array.isArray(body.links) && body.links.every((l) => isObject(l) && isText(l.href))))
    problems.push('links is not a list of {href, text}');
  for (const key of ['client', 'client_url'])
    if (body[key] !== undefined && typeof body[key] !== 'string') problems.push(`${key} is not a string`);
  return { body, problems };
}

const invalidEvent = (errors: string[]) => ({ status: 'invalid event', message: 'Event object is invalid', errors });
const routingKeyOf = (r: Pick<Received, 'body'>) => String(r.body?.routing_key);

/**
 * A loopback PagerDuty Events API v2 (on the shared ScriptedReceiver): it records each request with
 * what strays from the documented event (answering such a request 400 with the API's invalid-event
 * body), answers from a script per routing key, then 202 with the API's success body. Its URL names
 * `host`, a public-looking name the test DNS points at 127.0.0.1 (CHECK_PRIVATE_ALLOWLIST admits
 * loopback).
 */
export class PagerDutyReceiver extends ScriptedReceiver {
  constructor(host: string) {
    let received = 0;
    super(host, {
      check: (req, raw) => {
        received += 1;
        return problemsOf(req, raw);
      },
      keyOf: routingKeyOf,
      invalid: (problems) => ({ status: 400, body: invalidEvent(problems) }),
      unauthorized: () => ({ status: 401, body: invalidEvent(['unauthorized']) }),
      error: (status) =>
        status === 400
          ? invalidEvent(['scripted'])
          : { status: 'throttle event', message: 'Requests for this service are arriving too quickly' },
      ok: (r) => ({
        status: 202,
        body: { status: 'success', message: 'Event processed', dedup_key: r.body?.dedup_key ?? `generated-${received}` },
      }),
    });
  }

  /** The events sent with this routing key, in order. */
  to(routingKey: string): PagerDutyEvent[] {
    return this.at(routingKey);
  }

  /** The enqueue URL. */
  override url(path = '/v2/enqueue'): string {
    return super.url(path);
  }
}
