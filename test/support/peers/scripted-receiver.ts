import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver took, with what it made of it. */
export interface Received {
  readonly method: string;
  /** The path with its query, as requested. */
  readonly path: string;
  readonly pathname: string;
  readonly query: URLSearchParams;
  readonly headers: http.IncomingHttpHeaders;
  readonly raw: string;
  /** The body as the provider reads it (a JSON object, a form's fields), null when it could not be read. */
  readonly body: Record<string, any> | null;
  /** Where the request strays from the provider's documented wire format; empty when it is one. */
  readonly problems: string[];
}

/** An answer: its status, headers (a Retry-After) and body (JSON; a string as text/plain). */
export interface Answer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** What makes a receiver a given provider's: how it reads and checks a request, whom it is for, and its answers. */
export interface ReceiverRules {
  /** Reads the body and lists where the request strays from the documented format. */
  check(req: http.IncomingMessage, raw: string, url: URL): { body: Record<string, any> | null; problems: string[] };
  /** Whom a request is for (a topic, a token, a webhook): the key answers are scripted, credentials asked and requests listed by. */
  keyOf(request: Received): string;
  /** The credential a request carries, compared with the one its key asks for (protect). */
  credentialOf?(request: Received): string | undefined;
  /** Every key asks a credential: a request for a key the test did not protect is refused (an unknown API key). */
  readonly closed?: boolean;
  /** The provider's answer to a request off its format (400 unless it says otherwise). */
  invalid(problems: string[]): Answer;
  /** Its answer to a wrong or missing credential (401 unless it says otherwise). */
  unauthorized(request: Received): Answer;
  /** Its body for a scripted error status (429, 500...). */
  error(status: number): unknown;
  /** Its answer to a request it takes. */
  ok(request: Received): Answer;
}

/** The JSON object a body holds; a problem noted when it holds none. */
export function jsonObjectOf(raw: string, problems: string[]): Record<string, any> | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, any>;
    problems.push('body is not a JSON object');
  } catch {
    problems.push('body is not JSON');
  }
  return null;
}

/** Notes a problem unless the request's Content-Type is `type` (parameters such as charset allowed). */
export function expectContentType(req: http.IncomingMessage, type: string, problems: string[]): void {
  const actual = String(req.headers['content-type'] ?? '');
  if (actual.split(';')[0]!.trim().toLowerCase() !== type) problems.push(`content-type ${actual || 'missing'}`);
}

/** Notes every field of `body` not among `known`. */
export function expectKnownFields(body: Record<string, unknown>, known: ReadonlySet<string>, problems: string[], where = 'field'): void {
  for (const key of Object.keys(body)) if (!known.has(key)) problems.push(`unknown ${where} ${key}`);
}

/**
 * A loopback HTTP peer for a provider's API, the shared part of every notifier's receiver: it records
 * each request with where it strays from the provider's documented format (answered as the provider
 * would, 400 by default), asks a key's credential when the test protects it (401), answers from a
 * script per key (a 429 with Retry-After, a 500...), then as the provider does. Its URL names `host`,
 * a public-looking name the test DNS points at 127.0.0.1 (CHECK_PRIVATE_ALLOWLIST admits loopback).
 */
export class ScriptedReceiver {
  readonly requests: Received[] = [];
  private readonly credentials = new Map<string, string>();
  private readonly scripts = new Map<string, Answer[]>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://receiver');
      const { body, problems } = this.rules.check(req, raw, url);
      const request: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        pathname: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        raw,
        body,
        problems,
      };
      this.requests.push(request);
      const reply = ({ status, headers = {}, body: json }: Answer) => {
        const text = typeof json === 'string';
        res.writeHead(status, { 'content-type': text ? 'text/plain' : 'application/json', ...headers });
        res.end(text ? json : JSON.stringify(json ?? {}));
      };
      if (problems.length > 0) return reply(this.rules.invalid(problems));
      const key = this.rules.keyOf(request);
      const credential = this.credentials.get(key);
      const refused = credential === undefined ? this.rules.closed === true : this.rules.credentialOf?.(request) !== credential;
      if (refused) return reply(this.rules.unauthorized(request));
      const next = this.scripts.get(key)?.shift();
      if (next) return reply({ ...next, body: next.body ?? this.rules.error(next.status) });
      reply(this.rules.ok(request));
    });
  });

  constructor(
    private readonly host: string,
    private readonly rules: ReceiverRules,
  ) {}

  /** Requests for `key` must carry this credential (the provider's access control): any other is answered 401. */
  protect(key: string, credential: string): void {
    this.credentials.set(key, credential);
  }

  /** The next answers to requests for `key`, in order (then the provider's usual answer again). */
  answer(key: string, ...script: Answer[]): void {
    this.scripts.set(key, script);
  }

  /** The requests for `key`, in order. */
  at(key: string): Received[] {
    return this.requests.filter((r) => this.rules.keyOf(r) === key);
  }

  /** The receiver's origin with `path` (`/` by default). */
  url(path = '/'): string {
    return `http://${this.host}:${(this.server.address() as AddressInfo).port}${path}`;
  }

  start(): Promise<void> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
