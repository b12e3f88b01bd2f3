import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { CheckDeadline } from '../../../application/checks/check-deadline';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckReasonCode } from '../../../domain/checks/check-result';
import { connectPinned } from '../shared/pinned-connection';
import { findingFor } from '../shared/probe-error';

/** A connection the proxy did not make, by target (host:port). */
export interface ProxyFailure {
  readonly target: string;
  readonly code: CheckReasonCode;
  readonly message: string;
}

const CONNECT_TIMEOUT_MS = 10_000;
const MAX_FAILURES = 20;
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
]);

const stripBrackets = (host: string) => host.replace(/^\[(.*)\]$/, '$1');
const targetKey = (host: string, port: number) => `${stripBrackets(host).toLowerCase()}:${port}`;

/**
 * The HTTP proxy on loopback through which the browser makes every connection: CONNECT tunnels
 * (https, wss) and absolute-URI requests (http). Each target is vetted by the target policy and
 * dialled at a vetted address (connectPinned), so no page, redirect, subresource or DNS rebinding
 * reaches what the policy refuses. Refusals and failed connections are remembered by target, for
 * the checker to explain a failed step. Closing it ends every connection it carries.
 */
export class VettingProxy {
  private readonly server: http.Server;
  private readonly sockets = new Set<Duplex>();
  private readonly failed = new Map<string, ProxyFailure>();

  constructor(
    private readonly policy: TargetPolicy,
    private readonly signal?: AbortSignal,
  ) {
    this.server = http.createServer((req, res) => void this.forward(req, res));
    this.server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => void this.tunnel(req, client, head));
    this.server.on('connection', (socket) => this.track(socket));
  }

  /** Starts listening on an ephemeral loopback port; answers the proxy URL. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Why the proxy did not connect to this URL's host and port, if it did not. */
  failureFor(url: string): ProxyFailure | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    return this.failed.get(targetKey(parsed.hostname, Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80)));
  }

  failures(): ProxyFailure[] {
    return [...this.failed.values()];
  }

  private async tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    this.track(client);
    client.on('error', () => client.destroy());
    const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(req.url ?? '');
    if (!match) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const [host, port] = [match[1]!, Number(match[2])];
    const upstream = await this.connect(host, port);
    if (!upstream) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    if (client.destroyed) return void upstream.destroy();
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client).pipe(upstream);
    upstream.once('close', () => client.destroy());
    client.once('close', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400).end();
    }
    if (url.protocol !== 'http:') return void res.writeHead(400).end();
    const upstream = await this.connect(url.hostname, Number(url.port) || 80);
    if (!upstream) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('Refused by the monitoring service');
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
    const request = http.request({
      createConnection: () => upstream as never,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, host: url.host, connection: 'close' },
    });
    request.once('response', (answer) => {
      const out = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
      answer.pipe(res);
      answer.once('error', () => res.destroy());
    });
    let browserLeft = false;
    request.once('error', (error) => {
      if (!browserLeft) this.remember(targetKey(url.hostname, Number(url.port) || 80), error);
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end();
    });
    res.once('close', () => {
      browserLeft = !res.writableFinished;
      upstream.destroy();
    });
    req.pipe(request);
  }

  /** A pinned connection to a vetted address of host:port, or null (remembered) when refused or failed. */
  private async connect(host: string, port: number): Promise<Duplex | null> {
    // Passes at the connect timeout or when the scenario's own deadline does, whichever comes first.
    const { deadline, clear } = CheckDeadline.within(CONNECT_TIMEOUT_MS);
    const scenarioOver = () => deadline.pass();
    this.signal?.addEventListener('abort', scenarioOver, { once: true });
    if (this.signal?.aborted) deadline.pass();
    try {
      const { socket } = await connectPinned(this.policy, { host: stripBrackets(host), port, deadline });
      this.track(socket);
      return socket;
    } catch (error) {
      this.remember(targetKey(host, port), error);
      return null;
    } finally {
      clear();
      this.signal?.removeEventListener('abort', scenarioOver);
    }
  }

  private remember(target: string, error: unknown): void {
    if (this.failed.size >= MAX_FAILURES && !this.failed.has(target)) return;
    const finding = findingFor(error);
    this.failed.set(target, { target, code: finding.code, message: finding.message });
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }
}
