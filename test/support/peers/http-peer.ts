import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Pem } from './certificates';
import { closeNow, listenOnLoopback } from './loopback-listen';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/**
 * An HTTP or HTTPS server on loopback with a few fixed routes, switchable to failing (every route
 * answers 503). Routes: / (200 "Welcome to the test site"), /big (10 000 bytes), /slow (300 ms),
 * /redirect?to=URL (302), /loop (redirects to itself), /echo (method, host and body as JSON), /status/:code.
 */
export class HttpPeer {
  failing = false;
  readonly requests: { method: string; url: string; host: string | undefined }[] = [];
  private server!: http.Server;

  constructor(private readonly tls?: Pem) {}

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/'): string {
    return `${this.tls ? 'https' : 'http'}://127.0.0.1:${this.port}${path}`;
  }

  async start(): Promise<this> {
    const handler: Handler = (req, res) => this.handle(req, res);
    this.server = await listenOnLoopback(this.tls ? https.createServer({ key: this.tls.key, cert: this.tls.cert }, handler) : http.createServer(handler));
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
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host });
    const url = new URL(req.url ?? '/', 'http://peer');
    if (this.failing) return void res.writeHead(503).end('Service unavailable');
    if (url.pathname === '/') return void res.writeHead(200, { 'content-type': 'text/html', server: 'test-peer' }).end('<h1>Welcome to the test site</h1>');
    if (url.pathname === '/big') return void res.writeHead(200).end('x'.repeat(10_000));
    if (url.pathname === '/slow') return void setTimeout(() => res.writeHead(200).end('slow'), 300);
    if (url.pathname === '/redirect') return void res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    if (url.pathname === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (url.pathname.startsWith('/status/')) return void res.writeHead(Number(url.pathname.slice(8))).end();
    if (url.pathname === '/echo') {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ method: req.method, host: req.headers.host, body, custom: req.headers['x-custom'] ?? null })));
      return;
    }
    res.writeHead(404).end();
  }
}
