import { expectContentType, expectKnownFields, jsonObjectOf, ScriptedReceiver, type Received } from './scripted-receiver';

/** The fields of a message an incoming webhook takes (the Chat API's Message, as Google documents for webhooks). */
const MESSAGE_FIELDS = new Set(['text', 'cardsV2', 'cards', 'thread', 'fallbackText', 'accessoryWidgets']);
const REPLY_OPTIONS = ['MESSAGE_REPLY_OPTION_UNSPECIFIED', 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD', 'REPLY_MESSAGE_OR_FAIL'];
const PATH = /^\/v1\/spaces\/([A-Za-z0-9_-]+)\/messages$/;
/** A message is at most 32,000 bytes. */
const MESSAGE_MAX_BYTES = 32_000;

const spaceOf = (r: Pick<Received, 'pathname'>) => PATH.exec(r.pathname)?.[1] ?? '';
const googleError = (code: number, status: string, message: string) => ({ error: { code, message, status } });

/**
 * A loopback Google Chat for a space's incoming webhooks: POST /v1/spaces/<space>/messages?key=..&token=..,
 * JSON (charset allowed) of a message's documented fields, `text` a non-empty string, the whole at
 * most 32,000 bytes (else 400 INVALID_ARGUMENT); a space's webhook token asked when the test
 * protects it (401 UNAUTHENTICATED otherwise); `threadKey` and `messageReplyOption` in the query put
 * replies of one key in one thread. Answered 200 with the message's name and thread, as Chat does.
 */
export class GoogleChatReceiver extends ScriptedReceiver {
  /** Each space's threads: the thread key (or none) of every message, in order. */
  readonly threads = new Map<string, string[]>();

  constructor(host: string) {
    const threads = new Map<string, string[]>();
    super(host, {
      check: (req, raw, url) => {
        const problems: string[] = [];
        if (req.method !== 'POST') problems.push(`method ${req.method}`);
        if (!PATH.test(url.pathname)) problems.push(`path ${url.pathname}`);
        if (!url.searchParams.get('key') || !url.searchParams.get('token')) problems.push('key or token missing from the query');
        const option = url.searchParams.get('messageReplyOption');
        if (option !== null && !REPLY_OPTIONS.includes(option)) problems.push(`messageReplyOption ${option}`);
        expectContentType(req, 'application/json', problems);
        if (Buffer.byteLength(raw) > MESSAGE_MAX_BYTES) problems.push('message over 32,000 bytes');
        const body = jsonObjectOf(raw, problems);
        if (!body) return { body, problems };
        expectKnownFields(body, MESSAGE_FIELDS, problems);
        if (body.cardsV2 === undefined && !(typeof body.text === 'string' && body.text.trim() !== '')) problems.push('no text');
        if (/<\/?[a-z][^>]*>/i.test(String(body.text ?? ''))) problems.push('HTML in text (Chat shows it as typed)');
        return { body, problems };
      },
      keyOf: spaceOf,
      credentialOf: (r) => r.query.get('token') ?? undefined,
      invalid: (problems) => ({ status: 400, body: googleError(400, 'INVALID_ARGUMENT', problems.join('; ')) }),
      unauthorized: () => ({ status: 401, body: googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.') }),
      error: (status) =>
        status === 429
          ? googleError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted')
          : googleError(status, 'INTERNAL', 'Internal error'),
      ok: (request) => {
        const space = spaceOf(request);
        const key =
          request.query.get('messageReplyOption') === 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD' ? request.query.get('threadKey') : null;
        const list = threads.get(space) ?? [];
        const n = list.push(key ?? `own-${list.length + 1}`);
        threads.set(space, list);
        return {
          status: 200,
          body: {
            name: `spaces/${space}/messages/m${n}`,
            text: request.body!.text,
            thread: { name: `spaces/${space}/threads/${list[n - 1]}`, ...(key ? { threadKey: key } : {}) },
            space: { name: `spaces/${space}` },
          },
        };
      },
    });
    this.threads = threads;
  }

  /** A space's webhook URL, its token (the secret part) the test's. */
  webhookUrl(space: string, token: string): string {
    return this.url(`/v1/spaces/${space}/messages?key=AIzaSy-fixture&token=${encodeURIComponent(token)}`);
  }
}
