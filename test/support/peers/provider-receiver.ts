import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a provider's loopback receiver saw it, with where it strays from the documented wire format. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly raw: string;
  /** The JSON body as parsed; null when it was not a JSON object. */
  readonly body: Record<string, unknown> | null;
  /** Where the request strays from the provider's documented format; empty when it is one. */
  readonly problems: string[];
  /** Who the request is for (a room, a user key, a workflow): what scripts and credentials are keyed by. */
  readonly key: string;
}

/** A scripted answer: a status, its JSON body and headers (Retry-After). */
export interface ScriptedAnswer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** What a provider's receiver says of one request: its problems, its key, whether its credentials are right, the answers. */
export interface ProviderRules {
  /** The problems of a request with its body parsed as JSON (null when it is not JSON), and who it is for. */
  check(req: http.IncomingMessage, body: Record<string, unknown> | null): { problems: string[]; key: string };
  /** Whether the request carries the credential the key asks; called only when the test set one. */
  authorized(req: http.IncomingMessage, body: Record<string, unknown> | null, credential: string): boolean;
  /** The provider's answers: to a request off its format, without the right credential, and a success. */
  malformed(problems: string[]): ScriptedAnswer;
  unauthorized(): ScriptedAnswer;
  accepted(request: ReceivedRequest, count: number): ScriptedAnswer;
}

/** JSON.parse to an object, else null. */
export function jsonObject(raw: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A loopback server shaped like a provider's API (the rules say how): it records every request with
 * the problems it finds against the documented wire format (answering such a request as the provider
 * would, a 400), asks a key's credential when the test set one (the provider's 401 otherwise),
 * answers from a script per key (a 401, 404, 429 with Retry-After...), then the provider's success.
 * Its URL names `host`, a public-looking name the test DNS points at 127.0.0.1.
 */
export class ProviderReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly credentials = new Map<string, string>();
  private readonly scripts = new Map<string, ScriptedAnswer[]>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = jsonObject(raw);
      const { problems, key } = this.rules.check(req, body);
      const request: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body, problems, key };
      this.requests.push(request);
      const credential = this.credentials.get(key);
      const answer =
        problems.length > 0
          ? this.rules.malformed(problems)
          : credential !== undefined && !this.rules.authorized(req, body, credential)
            ? this.rules.unauthorized()
            : (this.scripts.get(key)?.shift() ?? this.rules.accepted(request, this.requests.length));
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });

  constructor(
    private readonly host: string,
    private readonly rules: ProviderRules,
  ) {}

  /** The key asks this credential (a token, a key): a request without it is answered as the provider refuses one. */
  protect(key: string, credential: string): void {
    this.credentials.set(key, credential);
  }

  /** The next answers to the key's requests, in order, before the provider's success. */
  answer(key: string, ...script: ScriptedAnswer[]): void {
    this.scripts.set(key, script);
  }

  at(key: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.key === key);
  }

  /** The server's base URL, ending in a slash. */
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
