import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Pem } from './certificates';
import { closeNow, listenOnLoopback } from './loopback-listen';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** What a peer saw of one request: the User-Agent lines sent (all of them), and the TLS SNI over https. */
export interface SeenRequest {
  method: string;
  url: string;
  host: string | undefined;
  userAgents: string[];
  servername: string | null;
}

/**
 * An HTTP or HTTPS server on loopback (127.0.0.1, or ::1) with a few fixed routes, switchable to
 * failing (every route answers 503). Routes: / (200 "Welcome to the test site"), /big (10 000 bytes),
 * /slow (300 ms), /first-byte-after/:ms (the status line only after that many ms), /redirect?to=URL
 * (302), /loop (redirects to itself), /echo (method, host and body as JSON), /status/:code.
 */
export class HttpPeer {
  failing = false;
  readonly requests: SeenRequest[] = [];
  private server!: http.Server;

  constructor(
    private readonly tls?: Pem,
    private readonly address: '127.0.0.1' | '::1' = '127.0.0.1',
  ) {}

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/'): string {
    return `${this.tls ? 'https' : 'http'}://${this.address === '::1' ? '[::1]' : this.address}:${this.port}${path}`;
  }

  async start(): Promise<this> {
    const handler: Handler = (req, res) => this.handle(req, res);
    const server = this.tls ? https.createServer({ key: this.tls.key, cert: this.tls.cert }, handler) : http.createServer(handler);
    this.server =
      this.address === '127.0.0.1'
        ? await listenOnLoopback(server)
        : await new Promise((resolve) => server.listen(0, this.address, () => resolve(server)));
    return this;
  }

  /** Serves another certificate from now on (https only), as a renewal or a misconfiguration would. */
  useCertificate(pem: Pem): void {
    (this.server as https.Server).setSecureContext({ key: pem.key, cert: pem.cert });
  }

  stop(): Promise<void> {
    return closeNow(this.server);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const userAgents: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i]!.toLowerCase() === 'user-agent') userAgents.push(req.rawHeaders[i + 1]!);
    }
    const servername = (req.socket as { servername?: string | false }).servername || null;
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host, userAgents, servername });
    const url = new URL(req.url ?? '/', 'http://peer');
    if (this.failing) return void res.writeHead(503).end('Service unavailable');
    if (url.pathname === '/')
      return void res.writeHead(200, { 'content-type': 'text/html', server: 'test-peer' }).end('<h1>Welcome to the test site</h1>');
    if (url.pathname === '/big') return void res.writeHead(200).end('x'.repeat(10_000));
    if (url.pathname === '/slow') return void setTimeout(() => res.writeHead(200).end('slow'), 300);
    if (url.pathname.startsWith('/first-byte-after/')) {
      return void setTimeout(() => res.writeHead(200).end('late'), Number(url.pathname.slice('/first-byte-after/'.length)));
    }
    if (url.pathname === '/redirect') return void res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    if (url.pathname === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (url.pathname.startsWith('/status/')) return void res.writeHead(Number(url.pathname.slice(8))).end();
    if (url.pathname === '/echo') {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ method: req.method, host: req.headers.host, body, custom: req.headers['x-custom'] ?? null })),
      );
      return;
    }
    res.writeHead(404).end();
  }
}
