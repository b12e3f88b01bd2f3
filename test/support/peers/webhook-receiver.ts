import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A loopback webhook receiver answering from a script per path (then 200), recording every request.
 * Its URLs name `host`, a public-looking name the test DNS points at 127.0.0.1, so deliveries pass
 * the real target policy with CHECK_PRIVATE_ALLOWLIST=127.0.0.0/8.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly scripts = new Map<string, Array<{ status: number; headers?: Record<string, string> }>>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      this.requests.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const next = this.scripts.get(path)?.shift() ?? { status: 200 };
      res.writeHead(next.status, { 'content-type': 'text/plain', ...next.headers });
      res.end(next.status === 200 ? 'ok' : `failure ${next.status}`);
    });
  });

  constructor(private readonly host: string) {}

  answer(path: string, ...script: Array<{ status: number; headers?: Record<string, string> }>): void {
    this.scripts.set(path, script);
  }

  at(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  url(path: string): string {
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
