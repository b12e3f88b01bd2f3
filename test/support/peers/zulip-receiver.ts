import { expectContentType, expectKnownFields, ScriptedReceiver, type Received } from './scripted-receiver';

/** The parameters of Zulip's send-message endpoint, as its API documents them. */
const FIELDS = new Set(['type', 'to', 'topic', 'subject', 'content', 'queue_id', 'local_id', 'read_by_sender']);
const TYPES = ['stream', 'channel', 'private', 'direct'];
/** A topic and a channel's name are at most 60 characters; a message's content at most 10000 bytes. */
const NAME_MAX = 60;
const CONTENT_MAX_BYTES = 10_000;

const zulipError = (msg: string, code: string, extra: Record<string, unknown> = {}) => ({ result: 'error', msg, code, ...extra });

/** The form's fields; a field given twice is a wire error (Zulip reads one). */
function formOf(raw: string, problems: string[]): Record<string, string> {
  const form: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    if (name in form) problems.push(`field ${name} twice`);
    form[name] = value;
  }
  return form;
}

/** The channel (stream) a request posts to: the form's `to`. */
const streamOf = (r: Pick<Received, 'body'>) => String(r.body?.to ?? '');

/**
 * A loopback Zulip server's POST /api/v1/messages: a form (application/x-www-form-urlencoded: Zulip
 * takes no JSON body) of the documented parameters, `type=stream` with `to`, a `topic` of at most 60
 * characters and `content` of at most 10000 bytes (else 400 BAD_REQUEST); HTTP Basic with a bot's
 * e-mail and API key the test registers for a channel (else 401 INVALID_API_KEY, as Zulip answers); a
 * channel the server does not have answers 400 STREAM_DOES_NOT_EXIST. A message taken answers 200
 * `{result: 'success', msg: '', id}`. Requests are listed and scripted per channel.
 */
export class ZulipReceiver extends ScriptedReceiver {
  private readonly streams: Set<string>;

  constructor(host: string) {
    const streams = new Set<string>();
    let id = 0;
    super(host, {
      check: (req, raw, url) => {
        const problems: string[] = [];
        if (req.method !== 'POST') problems.push(`method ${req.method}`);
        if (url.pathname !== '/api/v1/messages') problems.push(`path ${url.pathname}`);
        expectContentType(req, 'application/x-www-form-urlencoded', problems);
        if (!/^Basic [A-Za-z0-9+/]+=*$/.test(String(req.headers.authorization ?? ''))) problems.push('no HTTP Basic credentials');
        const body = formOf(raw, problems);
        expectKnownFields(body, FIELDS, problems);
        if (!TYPES.includes(body.type ?? '')) problems.push(`type ${body.type}`);
        if (!body.to) problems.push('no to');
        if (body.type === 'stream' || body.type === 'channel') {
          const topic = body.topic ?? body.subject;
          if (!topic || [...topic].length > NAME_MAX) problems.push('topic is not 1 to 60 characters');
        }
        if (!body.content || Buffer.byteLength(body.content) > CONTENT_MAX_BYTES) problems.push('content is not 1 to 10000 bytes');
        return { body, problems };
      },
      keyOf: streamOf,
      credentialOf: (r) => {
        const basic = /^Basic (.+)$/.exec(String(r.headers.authorization ?? ''))?.[1];
        return basic === undefined ? undefined : Buffer.from(basic, 'base64').toString('utf8');
      },
      closed: true,
      invalid: (problems) => ({ status: 400, body: zulipError(problems.join('; '), 'BAD_REQUEST') }),
      unauthorized: () => ({ status: 401, body: zulipError('Invalid API key', 'INVALID_API_KEY') }),
      error: (status) =>
        status === 429
          ? zulipError('API usage exceeded rate limit', 'RATE_LIMIT_HIT', { 'retry-after': 1 })
          : zulipError('Error', 'BAD_REQUEST'),
      ok: (request) => {
        const stream = streamOf(request);
        if (!streams.has(stream))
          return { status: 400, body: zulipError(`Channel '${stream}' does not exist`, 'STREAM_DOES_NOT_EXIST', { stream }) };
        return { status: 200, body: { result: 'success', msg: '', id: ++id } };
      },
    });
    this.streams = streams;
  }

  /** A channel (stream) the server has, which this bot (e-mail and API key) may post to. */
  channel(stream: string, botEmail: string, apiKey: string): void {
    this.streams.add(stream);
    this.protect(stream, `${botEmail}:${apiKey}`);
  }
}
