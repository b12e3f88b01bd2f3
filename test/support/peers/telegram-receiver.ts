import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** sendMessage's parameters (https://core.telegram.org/bots/api#sendmessage); any other is a wire error. */
const PARAMETERS = new Set([
  'business_connection_id',
  'chat_id',
  'message_thread_id',
  'direct_messages_topic_id',
  'text',
  'parse_mode',
  'entities',
  'link_preview_options',
  'disable_web_page_preview',
  'disable_notification',
  'protect_content',
  'allow_paid_broadcast',
  'message_effect_id',
  'suggested_post_parameters',
  'reply_parameters',
  'reply_markup',
]);
/** The tags Telegram's HTML parse mode takes (https://core.telegram.org/bots/api#html-style). */
const TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'tg-spoiler',
  'span',
  'a',
  'tg-emoji',
  'code',
  'pre',
  'blockquote',
]);
const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"' };
const CHANNEL_USERNAME = /^@[A-Za-z][A-Za-z0-9_]{4,31}$/;
const TEXT_MAX = 4096;
const PATH = /^\/bot([^/]+)\/sendMessage$/;

/**
 * The visible text of an HTML-mode message as Telegram parses it: tags among the allowed ones, each
 * closed in order; only the named entities and numeric ones; a bare <, > or & refused (Telegram's
 * "can't parse entities").
 */
export function parseHtml(html: string): { text: string; problems: string[] } {
  const problems: string[] = [];
  const open: string[] = [];
  let text = '';
  const token = /<(\/?)([a-z-]+)(\s[^<>]*)?>|&(#\d+|#x[0-9a-f]+|[a-z]+);|([<>&])|([^<>&]+)/gi;
  for (const m of html.matchAll(token)) {
    const [, close, tag, , entity, bare, plain] = m;
    if (plain !== undefined) text += plain;
    else if (bare !== undefined) problems.push(`unescaped ${bare} at ${m.index}`);
    else if (entity !== undefined) {
      const named = ENTITIES[entity];
      if (named !== undefined) text += named;
      else if (entity.startsWith('#'))
        text += String.fromCodePoint(Number(entity.startsWith('#x') ? `0x${entity.slice(2)}` : entity.slice(1)));
      else problems.push(`unsupported entity &${entity};`);
    } else if (!TAGS.has(tag!.toLowerCase())) problems.push(`unsupported tag <${close}${tag}>`);
    else if (close) {
      if (open.pop() !== tag!.toLowerCase()) problems.push(`unmatched </${tag}>`);
    } else open.push(tag!.toLowerCase());
  }
  if (open.length > 0) problems.push(`unclosed <${open.join('>, <')}>`);
  return { text, problems };
}

export interface SentMessage {
  readonly method: string;
  readonly path: string;
  /** The token in the path (`/bot<token>/sendMessage`), null when the path is not one. */
  readonly token: string | null;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Record<string, unknown> | null;
  /** The text as Telegram shows it (tags dropped, entities read). */
  readonly visibleText: string | null;
  /** Where the request strays from the documented sendMessage; empty when it is one. */
  readonly problems: string[];
}

function problemsOf(req: http.IncomingMessage, raw: string): Omit<SentMessage, 'method' | 'path' | 'headers'> {
  const problems: string[] = [];
  if (req.method !== 'POST') problems.push(`method ${req.method}`);
  const token = PATH.exec(req.url ?? '')?.[1] ?? null;
  if (token === null) problems.push(`path ${req.url}`);
  if (!/^application\/json\b/.test(String(req.headers['content-type']))) problems.push(`content-type ${req.headers['content-type']}`);
  let body: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    else problems.push('body is not a JSON object');
  } catch {
    problems.push('body is not JSON');
  }
  if (!body) return { token, body, visibleText: null, problems };
  for (const key of Object.keys(body)) if (!PARAMETERS.has(key)) problems.push(`unknown parameter ${key}`);
  const chatId = body.chat_id;
  if (!(Number.isSafeInteger(chatId) && chatId !== 0) && !(typeof chatId === 'string' && CHANNEL_USERNAME.test(chatId)))
    problems.push(`chat_id ${JSON.stringify(chatId)}`);
  if (body.message_thread_id !== undefined && !(Number.isSafeInteger(body.message_thread_id) && (body.message_thread_id as number) > 0))
    problems.push(`message_thread_id ${JSON.stringify(body.message_thread_id)}`);
  if (body.parse_mode !== 'HTML') problems.push(`parse_mode ${JSON.stringify(body.parse_mode)} (this receiver checks HTML)`);
  const lpo = body.link_preview_options;
  if (lpo !== undefined && (typeof lpo !== 'object' || lpo === null || Array.isArray(lpo)))
    problems.push('link_preview_options is not an object');
  let visibleText: string | null = null;
  if (typeof body.text !== 'string') problems.push('text is not a string');
  else {
    const parsed = parseHtml(body.text);
    problems.push(...parsed.problems);
    visibleText = parsed.text;
    const length = parsed.text.trim().length;
    if (length < 1 || length > TEXT_MAX) problems.push(`text of ${length} characters after entity parsing`);
  }
  return { token, body, visibleText, problems };
}

type Script = { status: number; description: string; retryAfter?: number; headers?: Record<string, string> };

/**
 * A loopback Bot API server for sendMessage: it records each request with what strays from the
 * documented format (answered 400 `can't parse entities` or `Bad Request`, as Telegram would),
 * answers 401 Unauthorized to a token it was not given, answers from a script per chat, then
 * `{ok: true, result: Message}`. Its URL names `host`, a public-looking name the test DNS points at
 * 127.0.0.1 (CHECK_PRIVATE_ALLOWLIST admits loopback).
 */
export class TelegramReceiver {
  readonly sent: SentMessage[] = [];
  private readonly tokens = new Set<string>();
  private readonly scripts = new Map<string, Script[]>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const checked = problemsOf(req, Buffer.concat(chunks).toString('utf8'));
      this.sent.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, ...checked });
      const reply = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      };
      const failure = (script: Script) =>
        reply(
          script.status,
          {
            ok: false,
            error_code: script.status,
            description: script.description,
            ...(script.retryAfter !== undefined ? { parameters: { retry_after: script.retryAfter } } : {}),
          },
          script.headers,
        );
      if (checked.token === null) return failure({ status: 404, description: 'Not Found' });
      if (!this.tokens.has(checked.token)) return failure({ status: 401, description: 'Unauthorized' });
      if (checked.problems.length > 0) return failure({ status: 400, description: `Bad Request: ${checked.problems.join('; ')}` });
      const chat = String(checked.body!.chat_id);
      const next = this.scripts.get(chat)?.shift();
      if (next) return failure(next);
      reply(200, {
        ok: true,
        result: {
          message_id: this.sent.length,
          date: Math.floor(Date.now() / 1000),
          chat:
            typeof checked.body!.chat_id === 'number'
              ? { id: checked.body!.chat_id, type: 'supergroup' }
              : { id: -1, type: 'channel', username: chat.slice(1) },
          text: checked.visibleText,
        },
      });
    });
  });

  constructor(private readonly host: string) {}

  /** A bot this server knows: sendMessage with any other token answers 401 Unauthorized. */
  bot(token: string): void {
    this.tokens.add(token);
  }

  /** Failures to answer a chat's next messages with, in order (Telegram's error body). */
  answer(chatId: string, ...script: Script[]): void {
    this.scripts.set(chatId, script);
  }

  to(chatId: string): SentMessage[] {
    return this.sent.filter((m) => m.body !== null && String(m.body.chat_id) === chatId);
  }

  /** The server's base URL, as a channel's apiUrl. */
  url(): string {
    return `http://${this.host}:${(this.server.address() as AddressInfo).port}/`;
  }

  start(): Promise<void> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
