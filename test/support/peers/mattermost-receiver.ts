import { expectContentType, expectKnownFields, jsonObjectOf, ScriptedReceiver, type Received } from './scripted-receiver';

/** The fields of an incoming webhook's JSON, as Mattermost documents them. */
const FIELDS = new Set(['text', 'channel', 'username', 'icon_url', 'icon_emoji', 'attachments', 'type', 'props', 'priority']);
/** A post's message is at most 16383 characters (a longer text is split into several posts). */
const TEXT_MAX = 16383;
const PATH = /^\/hooks\/([a-z0-9]+)$/;

const hookOf = (r: Pick<Received, 'pathname'>) => PATH.exec(r.pathname)?.[1] ?? '';
const appError = (status: number, id: string, message: string) => ({
  id,
  message,
  detailed_error: '',
  request_id: 'r1',
  status_code: status,
});

interface Hook {
  /** The channel it posts to, and whether a post may name another. */
  readonly channel: string;
  readonly locked: boolean;
}

/**
 * A loopback Mattermost for incoming webhooks: POST /hooks/<id>, JSON of the documented fields with a
 * `text` of at most 16383 characters (else 400, Mattermost's error body); an unknown hook answers 400
 * "Invalid webhook", a `channel` override the hook is locked against 403, a channel the server does not
 * have 404; a post taken answers 200 "ok" (text/plain), as Mattermost does. Requests are listed and
 * scripted per hook id; `posts` says which channel each post landed in.
 */
export class MattermostReceiver extends ScriptedReceiver {
  readonly posts: Array<{ hook: string; channel: string; text: string }>;
  private readonly hooks: Map<string, Hook>;
  private readonly channels: Set<string>;

  constructor(host: string) {
    const hooks = new Map<string, Hook>();
    const channels = new Set<string>(['town-square', 'off-topic']);
    const posts: Array<{ hook: string; channel: string; text: string }> = [];
    super(host, {
      check: (req, raw, url) => {
        const problems: string[] = [];
        if (req.method !== 'POST') problems.push(`method ${req.method}`);
        if (!PATH.test(url.pathname)) problems.push(`path ${url.pathname}`);
        expectContentType(req, 'application/json', problems);
        const body = jsonObjectOf(raw, problems);
        if (!body) return { body, problems };
        expectKnownFields(body, FIELDS, problems);
        if (body.attachments === undefined && !(typeof body.text === 'string' && body.text !== '')) problems.push('no text');
        if (typeof body.text === 'string' && [...body.text].length > TEXT_MAX) problems.push('text over 16383 characters');
        if (body.channel !== undefined && typeof body.channel !== 'string') problems.push('channel is not a string');
        return { body, problems };
      },
      keyOf: hookOf,
      invalid: (problems) => ({ status: 400, body: appError(400, 'api.webhook.incoming.invalid_body', problems.join('; ')) }),
      unauthorized: () => ({ status: 401, body: appError(401, 'api.context.session_expired.app_error', 'Invalid or expired session') }),
      error: (status) => appError(status, 'scripted', status === 429 ? 'Too many requests' : 'Error'),
      ok: (request) => {
        const hook = hooks.get(hookOf(request));
        if (!hook) return { status: 400, body: appError(400, 'web.incoming_webhook.invalid.app_error', 'Invalid webhook.') };
        const override = request.body!.channel as string | undefined;
        if (override !== undefined && override !== hook.channel && hook.locked)
          return {
            status: 403,
            body: appError(
              403,
              'web.incoming_webhook.channel_locked.app_error',
              'This webhook is not permitted to post to the requested channel.',
            ),
          };
        const channel = override ?? hook.channel;
        if (!channels.has(channel) && !channel.startsWith('@'))
          return { status: 404, body: appError(404, 'web.incoming_webhook.channel.app_error', 'Couldn’t find the channel.') };
        posts.push({ hook: hookOf(request), channel, text: String(request.body!.text) });
        return { status: 200, body: 'ok' };
      },
    });
    this.hooks = hooks;
    this.channels = channels;
    this.posts = posts;
  }

  /** A webhook posting to `channel` (locked: it may post there only), its URL. */
  hook(id: string, channel = 'town-square', locked = false): string {
    this.hooks.set(id, { channel, locked });
    this.channels.add(channel);
    return this.url(`/hooks/${id}`);
  }
}
