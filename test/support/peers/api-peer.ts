import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { closeNow } from './loopback-listen';

/** What the peer saw of one request. */
export interface ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/**
 * TEST SUPPORT ONLY: a small JSON API on a loopback address for API check chains. Routes:
 * POST /login ({"user","password"}: 200 {"token"} when the password is `password`, else 401),
 * GET /me (200 with the user and an x-request-id header for `Authorization: Bearer <token>`, else 401),
 * POST /echo (500 with the request body: a step whose evidence would show what was sent),
 * GET /slow (after 300 ms), GET /big (1 MiB of JSON-looking text), GET /headers (14 headers of 1,000
 * characters), anything else 404.
 */
export class ApiPeer {
  readonly requests: ApiRequest[] = [];
  private readonly tokens = new Set<string>();
  private server!: http.Server;

  constructor(
    private readonly password: string,
    private readonly address = '127.0.0.1',
  ) {}

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/'): string {
    return `http://${this.address}:${this.port}${path}`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        this.answer(req, body, res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, this.address, () => resolve()));
    return this;
  }

  stop(): Promise<void> {
    return closeNow(this.server);
  }

  private answer(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'POST' && path === '/login') {
      let sent: { user?: string; password?: string } = {};
      try {
        sent = JSON.parse(body) as typeof sent;
      } catch {
        return json(400, { error: 'not JSON' });
      }
      if (sent.password !== this.password) return json(401, { error: 'bad credentials' });
      const token = `tok-${randomUUID()}`;
      this.tokens.add(token);
      return json(200, { token, user: sent.user }, { 'x-session': 'abc' });
    }
    if (req.method === 'GET' && path === '/me') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !this.tokens.has(token)) return json(401, { error: 'no session' });
      return json(200, { user: { name: 'Ann', roles: ['admin', 'ops'] } }, { 'x-request-id': 'req-42' });
    }
    if (req.method === 'POST' && path === '/echo') return json(500, { received: body });
    if (path === '/slow') {
      setTimeout(() => json(200, { ok: true }), 300);
      return;
    }
    if (path === '/headers') {
      const many = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`x-filler-${i}`, 'h'.repeat(1000)]));
      return json(200, { ok: true }, many);
    }
    if (path === '/big') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"data":"${'x'.repeat(1024 * 1024)}"}`);
      return;
    }
    json(404, { error: 'not found' });
  }
}
