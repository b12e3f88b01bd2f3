import { jsonObjectOf, ScriptedReceiver, type Received, type ReceiverRules } from './scripted-receiver';

/** The Message API's parameters (its documented ones); any other is a wire error here. */
const FIELDS = new Set(['token', 'user', 'message', 'attachment_base64', 'attachment_type', 'device', 'html', 'priority', 'sound']);
const MORE_FIELDS = new Set(['timestamp', 'title', 'ttl', 'url', 'url_title', 'retry', 'expire', 'callback', 'tags', 'monospace']);
const KEY = /^[A-Za-z0-9]{30}$/;
const int = (value: unknown): value is number => Number.isInteger(value);
let requestCounter = 0;
const requestId = () => `5042853c-402d-4a18-abcb-${String(++requestCounter).padStart(12, '0')}`;

const userOf = (request: Received) => (typeof request.body?.user === 'string' ? request.body.user : '');
const failure = (status: number, errors: string[], extra: Record<string, unknown> = {}) => ({
  status,
  body: { ...extra, errors, status: 0, request: requestId() },
});

const rules: ReceiverRules = {
  check(req, raw) {
    const problems: string[] = [];
    if (req.method !== 'POST') problems.push(`method ${req.method}`);
    if (req.url !== '/1/messages.json') problems.push(`path ${req.url}`);
    if (!/^application\/json\b/.test(String(req.headers['content-type']))) problems.push(`content-type ${req.headers['content-type']}`);
    const body = jsonObjectOf(raw, problems);
    if (!body) return { body, problems };
    for (const name of Object.keys(body)) if (!FIELDS.has(name) && !MORE_FIELDS.has(name)) problems.push(`unknown parameter ${name}`);
    if (typeof body.token !== 'string' || !KEY.test(body.token)) problems.push('application token is invalid');
    if (typeof body.user !== 'string' || !KEY.test(body.user))
      problems.push('user identifier is not a valid user, group, or subscribed user key');
    if (typeof body.message !== 'string' || body.message === '') problems.push('message cannot be blank');
    else if ([...body.message].length > 1024) problems.push('message is too long (1024 characters at most)');
    if (body.title !== undefined && (typeof body.title !== 'string' || [...body.title].length > 250)) problems.push('title is invalid');
    const priority = body.priority ?? 0;
    if (!int(priority) || priority < -2 || priority > 2) problems.push(`priority ${JSON.stringify(body.priority)}`);
    if (priority === 2) {
      if (!int(body.retry) || body.retry < 30) problems.push('retry must be at least 30 seconds with priority 2');
      if (!int(body.expire) || body.expire > 10800 || body.expire < 1)
        problems.push('expire must be at most 10800 seconds with priority 2');
    } else if (body.retry !== undefined || body.expire !== undefined) problems.push('retry and expire are for priority 2 only');
    if (body.timestamp !== undefined && !int(body.timestamp)) problems.push('timestamp is not a Unix time');
    return { body, problems };
  },
  keyOf: userOf,
  credentialOf: (request) => (typeof request.body?.token === 'string' ? request.body.token : undefined),
  invalid: (problems) => failure(400, problems),
  unauthorized: () => failure(400, ['application token is invalid'], { token: 'invalid' }),
  error: (status) => failure(status, [`scripted ${status}`]).body,
  ok: (request) => ({
    status: 200,
    body: { status: 1, request: requestId(), ...(request.body?.priority === 2 ? { receipt: 'rLqVuqTRh62UzxtmqiaLzQmVcPgiCy' } : {}) },
  }),
};

/**
 * A loopback Pushover Message API: POST of JSON to /1/messages.json, `token` and `user` of 30
 * letters and digits, a message of 1 to 1024 characters, a title of at most 250, a priority of -2
 * to 2, an emergency one (2) with retry >= 30 and expire <= 10800 (the documented parameters only).
 * A request off that, or with another application token than the user's (`protect`), answers 400
 * with `status: 0` and `errors`, as Pushover does; a success 200 `{status: 1, request}`, a receipt
 * for priority 2. Keyed by user key.
 */
export class PushoverReceiver extends ScriptedReceiver {
  constructor(host: string) {
    super(host, rules);
  }

  /** The Message API's URL on this server. */
  messagesUrl(): string {
    return this.url('/1/messages.json');
  }
}
