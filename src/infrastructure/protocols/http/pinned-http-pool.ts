import { readBoundedBody } from './bounded-body';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { Deadline } from '../../../application/checks/ports';
import { connectVetted, vetTarget } from '../shared/pinned-connection';
import { checkTimedOut } from '../shared/probe-error';
import { Slots } from '../shared/slots';
import { CheckDeadline } from '../../../application/checks/check-deadline';
import type { SharedTlsContext } from '../shared/tls-context';

export interface PinnedHttpPoolSettings {
  /** Most requests (so connections) at once to one receiver; more wait their turn within their deadline (PooledRequest). */
  readonly socketsPerOrigin: number;
  /** Most receivers whose connections are kept; past it the least recently used idle receiver's are closed. */
  readonly origins: number;
  /** How long an idle connection is kept (less when the receiver announces a shorter Keep-Alive timeout). */
  readonly idleMs?: number;
}

export interface PooledRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer | null;
  /** Sent as User-Agent unless `headers` name one. */
  readonly userAgent: string;
  /** Keep at most this many body bytes; the rest is only counted, and reading stops past `countLimit`. */
  readonly keepBodyBytes: number;
  readonly countLimit: number;
  /** Bounds the request: vetting its host, waiting for its turn, and (without `exchangeMs`) the exchange. */
  readonly deadline: Deadline;
  /**
   * When given, the exchange (connecting, sending, the answer) is bounded by this many ms from when
   * its turn comes, and `deadline` by then bounds only the wait: a request queued behind the
   * receiver's others is not timed out by its place in the queue. Its timeout then says how long
   * the receiver took, and a request that never had its turn fails with TurnNotFree.
   */
  readonly exchangeMs?: number;
  /** Called when its turn comes, as the exchange begins (a sender's latency counts from there, not from the queue). */
  readonly onTurn?: () => void;
}

export interface PooledResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer | null;
  readonly bodyBytes: number;
  /** Whether the request went over a connection an earlier request had opened. */
  readonly reused: boolean;
}

const IDLE_MS = 30_000;
/** A kept connection the receiver closed meanwhile fails at once: the request goes again on another, this many times at most. */
const STALE_RETRIES = 2;
const STALE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** Where one pool's connections go: the vetted addresses, the port, TLS's name (https). */
interface Pin {
  readonly addresses: readonly string[];
  readonly port: number;
  readonly servername: string | null;
}

/** An agent whose connections are dialled at its pinned addresses, each judged by the policy as it is dialled. */
class PinnedAgent extends http.Agent {
  constructor(
    private readonly pin: Pin,
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
    options: http.AgentOptions,
  ) {
    super(options);
  }

  override createConnection(
    options: http.ClientRequestArgs,
    done?: (error: Error | null, socket: Duplex) => void,
  ): Duplex | null | undefined {
    const { deadline } = options as { deadline?: Deadline };
    const { pin } = this;
    connectVetted(this.policy, pin.addresses, {
      port: pin.port,
      deadline: deadline ?? neverPassing,
      tls: pin.servername === null ? undefined : { servername: pin.servername, context: this.tls },
    }).then(
      (connection) => done?.(null, connection.socket),
      (error: Error) => done?.(error, undefined as never),
    );
    return undefined;
  }
}

const neverPassing: Deadline = { passed: false, onPassed: () => () => undefined, signal: new AbortController().signal };

interface Origin {
  readonly agent: PinnedAgent;
  readonly slots: Slots;
}

/**
 * Keep-alive connections to notification receivers (webhooks, chat services, the SMS provider). A
 * request vets its host through the target policy first (names through its resolver, which may keep
 * answers for their TTL); the receiver's pool is keyed by its origin and the vetted addresses, so a
 * name that now resolves elsewhere gets a pool of its own and never a connection to its old address,
 * and every connection is dialled at a vetted address the policy judges again as it is dialled.
 * At most `socketsPerOrigin` requests run at once per receiver (a slow one fills only its own), and
 * at most `origins` receivers are kept (least recently used idle ones closed first).
 */
export class PinnedHttpPool {
  private readonly origins = new Map<string, Origin>();
  private closed = false;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
    private readonly settings: PinnedHttpPoolSettings,
  ) {}

  /** Receivers kept now. */
  get size(): number {
    return this.origins.size;
  }

  async request(request: PooledRequest): Promise<PooledResponse> {
    const { url, deadline } = request;
    const https = url.protocol === 'https:';
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(url.port) || (https ? 443 : 80);
    const addresses = await vetTarget(this.policy, hostname);
    if (deadline.passed) throw checkTimedOut();
    const origin = this.originOf({ addresses, port, servername: https ? hostname : null }, `${url.protocol}//${hostname}:${port}`);
    const release = await origin.slots.acquire(deadline);
    request.onTurn?.();
    const exchange = request.exchangeMs === undefined ? null : CheckDeadline.within(request.exchangeMs);
    try {
      const sent = exchange ? { ...request, deadline: exchange.deadline } : request;
      for (let retries = 0; ; retries++) {
        try {
          return await this.send(origin.agent, hostname, port, https, sent);
        } catch (error) {
          if (!(error instanceof StaleConnection) || retries >= STALE_RETRIES || sent.deadline.passed)
            throw error instanceof StaleConnection ? error.cause : error;
        }
      }
    } finally {
      exchange?.clear();
      release();
    }
  }

  /** Closes every kept connection; later requests fail. */
  close(): void {
    this.closed = true;
    for (const origin of this.origins.values()) origin.agent.destroy();
    this.origins.clear();
  }

  private originOf(pin: Pin, origin: string): Origin {
    if (this.closed) throw new Error('The notification connection pool is closed');
    const key = `${origin}|${pin.addresses.join(',')}`;
    const known = this.origins.get(key);
    if (known) {
      this.origins.delete(key);
      this.origins.set(key, known); // most recently used last
      return known;
    }
    if (this.origins.size >= this.settings.origins) this.forgetIdle();
    const perOrigin = this.settings.socketsPerOrigin;
    const agent = new PinnedAgent(pin, this.policy, this.tls, {
      keepAlive: true,
      maxSockets: perOrigin,
      maxFreeSockets: perOrigin,
      timeout: this.settings.idleMs ?? IDLE_MS,
      scheduling: 'lifo',
    });
    const created = { agent, slots: new Slots(perOrigin) };
    this.origins.set(key, created);
    return created;
  }

  /** Closes the least recently used receiver with nothing in flight (none when all are busy: the bound gives way rather than a request). */
  private forgetIdle(): void {
    for (const [key, origin] of this.origins) {
      if (origin.slots.busy > 0) continue;
      origin.agent.destroy();
      this.origins.delete(key);
      return;
    }
  }

  private send(agent: PinnedAgent, hostname: string, port: number, https: boolean, request: PooledRequest): Promise<PooledResponse> {
    const { url, deadline } = request;
    return new Promise<PooledResponse>((resolve, reject) => {
      const req = http.request({
        agent,
        host: hostname,
        port,
        defaultPort: https ? 443 : 80,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers: { 'user-agent': request.userAgent, ...request.headers },
        // read by PinnedAgent.createConnection: a new connection is bounded by the request's deadline
        deadline,
      } as http.RequestOptions);
      const unsubscribe = deadline.onPassed(() => req.destroy(checkTimedOut()));
      req.on('error', (error: NodeJS.ErrnoException) => {
        unsubscribe();
        reject(req.reusedSocket && !deadline.passed && STALE.has(error.code ?? '') ? new StaleConnection(error) : error);
      });
      req.once('response', (res) =>
        readBoundedBody(
          res,
          request,
          ({ bodyBytes, body }) => {
            unsubscribe();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, bodyBytes, reused: req.reusedSocket, body });
          },
          (error) => {
            unsubscribe();
            reject(error);
          },
        ),
      );
      req.end(request.body ?? undefined);
    });
  }
}

/** A kept connection that turned out closed before any answer: worth the same request on another. */
class StaleConnection extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}
