import { randomUUID } from 'node:crypto';
import { expectContentType, expectKnownFields, jsonObjectOf, ScriptedReceiver, type Received } from './scripted-receiver';

/**
 * The Alert API's create-alert request and its acknowledge and close requests, as Opsgenie documents
 * them: the fields of each, their bounds; any other is a wire error.
 */
const CREATE_FIELDS = new Set([
  'message',
  'alias',
  'description',
  'responders',
  'visibleTo',
  'actions',
  'tags',
  'details',
  'entity',
  'source',
  'priority',
  'user',
  'note',
]);
const ACTION_FIELDS = new Set(['user', 'source', 'note']);
const PRIORITIES = ['P1', 'P2', 'P3', 'P4', 'P5'];
const IDENTIFIER_TYPES = ['id', 'tiny', 'alias'];
const ACTION_PATH = /^\/v2\/alerts\/([^/]+)\/(acknowledge|close)$/;

const isText = (value: unknown, max: number, min = 1) => typeof value === 'string' && value.length >= min && value.length <= max;
const KEY_OF = (r: Pick<Received, 'headers'>) => /^GenieKey (.+)$/.exec(String(r.headers.authorization ?? ''))?.[1] ?? '';

function createProblems(body: Record<string, any>, problems: string[]): void {
  expectKnownFields(body, CREATE_FIELDS, problems);
  if (!isText(body.message, 130)) problems.push('message is not 1 to 130 characters');
  if (body.alias !== undefined && !isText(body.alias, 512)) problems.push('alias is not 1 to 512 characters');
  if (body.description !== undefined && !isText(body.description, 15000, 0)) problems.push('description over 15000 characters');
  if (body.priority !== undefined && !PRIORITIES.includes(body.priority)) problems.push(`priority ${JSON.stringify(body.priority)}`);
  if (body.tags !== undefined && !(Array.isArray(body.tags) && body.tags.length <= 20 && body.tags.every((t: unknown) => isText(t, 50))))
    problems.push('tags is not at most 20 tags of at most 50 characters');
  if (body.source !== undefined && !isText(body.source, 100)) problems.push('source is not 1 to 100 characters');
  if (body.entity !== undefined && !isText(body.entity, 512)) problems.push('entity is not 1 to 512 characters');
  if (body.details !== undefined) {
    const details: unknown = body.details;
    if (typeof details !== 'object' || details === null || Array.isArray(details)) problems.push('details is not an object');
    else if (!Object.values(details).every((v) => typeof v === 'string')) problems.push('details values are not strings');
    else if (JSON.stringify(details).length > 8000) problems.push('details over 8000 characters');
  }
}

type Alerts = Map<string, { status: 'open' | 'acknowledged' | 'closed'; count: number; priority: string }>;

/** What Opsgenie does with a request it took: creates (or folds into) an alert, acknowledges or closes one. */
function apply(alerts: Alerts, request: Received): void {
  const action = ACTION_PATH.exec(request.pathname);
  if (!action) {
    const alias = String(request.body!.alias ?? request.body!.message);
    const open = alerts.get(alias);
    if (open && open.status !== 'closed') alerts.set(alias, { ...open, count: open.count + 1 });
    else alerts.set(alias, { status: 'open', count: 1, priority: String(request.body!.priority ?? 'P3') });
    return;
  }
  const alias = decodeURIComponent(action[1]!);
  const alert = alerts.get(alias);
  if (alert && alert.status !== 'closed') alerts.set(alias, { ...alert, status: action[2] === 'close' ? 'closed' : 'acknowledged' });
}

/**
 * A loopback Opsgenie Alert API: POST /v2/alerts creates an alert (its alias folds a second create
 * into the open alert), POST /v2/alerts/<identifier>/acknowledge|close?identifierType=alias acts on
 * one; every request asks `Authorization: GenieKey <key>` of a key the test accepts (any other is
 * answered 401 as Opsgenie does), JSON of the documented fields (else 422), and is
 * answered 202 "Request will be processed". Requests are listed and scripted per API key.
 */
export class OpsgenieReceiver extends ScriptedReceiver {
  /** The alerts as Opsgenie would hold them, by alias: their status and how many creates folded in. */
  readonly alerts: Alerts;

  constructor(host: string) {
    const alerts: Alerts = new Map();
    super(host, {
      check: (req, raw, url) => {
        const problems: string[] = [];
        if (req.method !== 'POST') problems.push(`method ${req.method}`);
        expectContentType(req, 'application/json', problems);
        const action = ACTION_PATH.exec(url.pathname);
        if (url.pathname !== '/v2/alerts' && !action) problems.push(`path ${url.pathname}`);
        if (action && !IDENTIFIER_TYPES.includes(url.searchParams.get('identifierType') ?? 'id'))
          problems.push(`identifierType ${url.searchParams.get('identifierType')}`);
        if (!KEY_OF(req)) problems.push('no Authorization: GenieKey');
        const body = jsonObjectOf(raw, problems);
        if (!body) return { body, problems };
        if (action) {
          expectKnownFields(body, ACTION_FIELDS, problems);
          if (body.note !== undefined && !isText(body.note, 25000)) problems.push('note is not 1 to 25000 characters');
          if (body.source !== undefined && !isText(body.source, 100)) problems.push('source is not 1 to 100 characters');
        } else createProblems(body, problems);
        return { body, problems };
      },
      keyOf: KEY_OF,
      credentialOf: KEY_OF,
      closed: true,
      invalid: (problems) => ({ status: 422, body: { message: problems.join('; '), took: 0.001, requestId: randomUUID() } }),
      unauthorized: () => ({ status: 401, body: { message: 'Could not authenticate', took: 0.001, requestId: randomUUID() } }),
      error: (status) => ({
        message: status === 429 ? 'You are making too many requests!' : 'Error',
        took: 0.001,
        requestId: randomUUID(),
      }),
      ok: (request) => {
        apply(alerts, request);
        return { status: 202, body: { result: 'Request will be processed', took: 0.002, requestId: randomUUID() } };
      },
    });
    this.alerts = alerts;
  }

  /** Accepts this API key (an integration's). */
  accept(apiKey: string): void {
    this.protect(apiKey, apiKey);
  }
}
