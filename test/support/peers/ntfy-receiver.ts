import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The fields of ntfy's JSON publish (https://docs.ntfy.sh/publish/#publish-as-json); any other is a wire error. */
const JSON_FIELDS = new Set([
  'topic',
  'message',
  'title',
  'tags',
  'priority',
  'actions',
  'click',
  'attach',
  'markdown',
  'icon',
  'filename',
  'delay',
  'email',
  'call',
]);
const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;
const MESSAGE_MAX_BYTES = 4096;

export interface NtfyPublish {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  /** The JSON body as parsed (null when it was not JSON). */
  readonly body: Record<string, unknown> | null;
  /** Where the request strays from ntfy's documented JSON publish; empty when it is one. */
  readonly problems: string[];
}

/** What is wrong with a request as ntfy's JSON publish: POST to the root, application/json, the documented fields and types. */
function problemsOf(req: http.IncomingMessage, raw: string): { body: Record<string, unknown> | null; problems: string[] } {
  const problems: string[] = [];
  if (req.method !== 'POST' && req.method !== 'PUT') problems.push(`method ${req.method}`);
  if (req.url !== '/') problems.push(`path ${req.url} (JSON is published to the root)`);
  if (!/^application\/json\b/.test(String(req.headers['content-type']))) problems.push(`content-type ${req.headers['content-type']}`);
  let body: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    else problems.push('body is not a JSON object');
  } catch {
    problems.push('body is not JSON');
  }
  if (!body) return { body, problems };
  for (const key of Object.keys(body)) if (!JSON_FIELDS.has(key)) problems.push(`unknown field ${key}`);
  if (typeof body.topic !== 'string' || !TOPIC.test(body.topic)) problems.push(`topic ${JSON.stringify(body.topic)}`);
  if (body.message !== undefined && typeof body.message !== 'string') problems.push('message is not a string');
  if (typeof body.message === 'string' && Buffer.byteLength(body.message) > MESSAGE_MAX_BYTES) problems.push('message over 4096 bytes');
  if (body.title !== undefined && typeof body.title !== 'string') problems.push('title is not a string');
  if (body.priority !== undefined && !(Number.isInteger(body.priority) && (body.priority as number) >= 1 && (body.priority as number) <= 5))
    problems.push(`priority ${JSON.stringify(body.priority)}`);
  if (body.tags !== undefined && !(Array.isArray(body.tags) && body.tags.every((t) => typeof t === 'string')))
    problems.push('tags is not a list of strings');
  if (body.click !== undefined && typeof body.click !== 'string') problems.push('click is not a string');
  return { body, problems };
}

/**
 * A loopback ntfy server for JSON publishes: it records each request with what strays from the
 * documented wire format (answering such a request 400, as ntfy would), asks a topic's access token
 * as `Authorization: Bearer` when the test protects it (401 otherwise, ntfy's error body), and
 * answers from a script per topic, then 200 with ntfy's message JSON. Its URL names `host`, a
 * public-looking name the test DNS points at 127.0.0.1 (CHECK_PRIVATE_ALLOWLIST admits loopback).
 */
export class NtfyReceiver {
  readonly publishes: NtfyPublish[] = [];
  private readonly tokens = new Map<string, string>();
  private readonly scripts = new Map<string, Array<{ status: number; headers?: Record<string, string> }>>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { body, problems } = problemsOf(req, Buffer.concat(chunks).toString('utf8'));
      this.publishes.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, problems });
      const topic = typeof body?.topic === 'string' ? body.topic : '';
      const reply = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      };
      if (problems.length > 0) return reply(400, { code: 40000, http: 400, error: problems.join('; ') });
      const token = this.tokens.get(topic);
      if (token !== undefined && req.headers.authorization !== `Bearer ${token}`)
        return reply(401, { code: 40101, http: 401, error: 'unauthorized' });
      const next = this.scripts.get(topic)?.shift();
      if (next) return reply(next.status, { code: next.status * 100, http: next.status, error: 'scripted' }, next.headers);
      reply(200, { id: `m${this.publishes.length}`, time: Math.floor(Date.now() / 1000), event: 'message', topic, message: body?.message });
    });
  });

  constructor(private readonly host: string) {}

  /** The topic asks this access token (ntfy's access control): a publish without it answers 401. */
  protect(topic: string, token: string): void {
    this.tokens.set(topic, token);
  }

  answer(topic: string, ...script: Array<{ status: number; headers?: Record<string, string> }>): void {
    this.scripts.set(topic, script);
  }

  at(topic: string): NtfyPublish[] {
    return this.publishes.filter((p) => p.body?.topic === topic);
  }

  /** The server's base URL (the topic is not part of it). */
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
