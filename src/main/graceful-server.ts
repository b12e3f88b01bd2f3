import http from 'node:http';
import net from 'node:net';
import type { Logger } from 'pino';
import { answerClientError } from '../interfaces/http/shared/client-errors';
import { errorEnvelope } from '../interfaces/http/shared/envelope';
import { MESSAGES } from '../interfaces/http/shared/messages';
import { runInScopeUntil, WorkScope } from '../infrastructure/persistence/work-scope';
import { holdUntilClosed } from '../interfaces/http/shared/held-by-response';

/** How long a cut request has to send its 503 before its connection is closed. */
const CUT_ANSWER_MS = 3_000;
/** Seconds a client refused during a stop is asked to wait. */
const RETRY_AFTER_SECONDS = 2;
/**
 * The listener stays open after the stop begins until no connection has come for this long: the
 * connections the kernel had already accepted for it (its queue, which closing the listener would
 * reset) are taken and their requests refused 503 serviceStopping instead.
 */
const ACCEPT_QUIET_MS = 250;
/** However busy the listener is, it closes this long after the stop began. */
const ACCEPT_MOST_MS = 2_000;

/** What the stop needs of the database: resetting the connections of the requests it cut. */
export interface CuttableDatabase {
  abortCut(): number;
}

/**
 * The HTTP server with a stop that answers every request it took. Stopping: every request that
 * arrives is refused (503 serviceStopping, its connection closing), and the listener closes once no
 * connection has come for ACCEPT_QUIET_MS (at most ACCEPT_MOST_MS after the stop began), so a
 * connection the kernel had queued for it gets that answer rather than a reset. Open connections stay
 * open (a request on one is refused so), event streams end (their clients reconnect elsewhere), and
 * the requests in flight finish, each answer closing its connection. Those still running when the grace passes are
 * cut: their database work fails and their held connections are reset, so they answer 503 and what
 * they had not committed never commits. Only then are the connections closed, and the database
 * after the server (the application's stop order). A client is never left with a reset connection
 * for a write that was then committed.
 */
export class GracefulServer {
  readonly server: http.Server;
  private readonly inFlight = new Map<http.ServerResponse, WorkScope>();
  private stopping = false;
  private idle: (() => void) | undefined;

  constructor(
    listener: http.RequestListener,
    private readonly logger: Logger,
  ) {
    this.server = http.createServer((req, res) => this.handle(req, res, listener));
    this.server.keepAliveTimeout = 65_000;
    this.server.on('clientError', answerClientError);
  }

  listen(port: number, host: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
  }

  /** Stops as described above; `graceMs` is how long requests in flight may take. */
  async stop(graceMs: number, database: CuttableDatabase): Promise<void> {
    this.stopping = true;
    // Connections are not closed now, idle or not: one taken but not yet read (a starved process) would be reset.
    const closed = this.closeWhenQuiet();
    for (const res of this.inFlight.keys()) {
      res.shouldKeepAlive = false;
      // A live event stream never finishes on its own: its clients reconnect (with Last-Event-ID) to another process.
      if (String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')) res.end();
    }
    const waiting = this.inFlight.size;
    if (waiting > 0) this.logger.info({ inFlight: waiting, graceMs }, 'stopping: waiting for the requests in flight');
    if (!(await this.drained(graceMs))) {
      // Cut what committed nothing yet; what did commit runs on to its answer (cutting it would answer 503 to a write that happened).
      const cut = [...this.inFlight.values()].filter((scope) => scope.cutNow()).length;
      const aborted = database.abortCut();
      this.logger.warn(
        { inFlight: this.inFlight.size, cut, abortedConnections: aborted, graceMs },
        'stopping: requests past the grace that committed nothing are cut (503 serviceStopping, nothing of theirs commits)',
      );
      await this.drained(CUT_ANSWER_MS);
    }
    const { ended, answered } = await closed;
    await answered;
    this.server.closeAllConnections();
    await ended;
  }

  /**
   * Closes the listener once no connection has come for ACCEPT_QUIET_MS, or ACCEPT_MOST_MS after
   * now; answers (once it is closed) the wait for its connections to end, and for those it took
   * meanwhile to be answered.
   */
  private closeWhenQuiet(): Promise<{ ended: Promise<void>; answered: Promise<void> }> {
    return new Promise((resolve) => {
      let quiet: NodeJS.Timeout | undefined;
      let arrivedSince = false;
      const taken = new ConnectionsTaken();
      // A starved process runs its expired timers before the turn's poll takes the connections the
      // kernel queued meanwhile: the listener closes only if that poll brought none.
      const closeIfStillQuiet = () => {
        arrivedSince = false;
        setImmediate(() => (arrivedSince ? undefined : close()));
      };
      const close = () => {
        clearTimeout(quiet);
        clearTimeout(most);
        this.server.off('connection', arrived);
        // net's close, not http's, which would also drop the connections taken whose request is not read yet (they are answered 503).
        const ended = new Promise<void>((done) => net.Server.prototype.close.call(this.server, () => done()));
        resolve({ ended, answered: taken.allClosed(CUT_ANSWER_MS) });
      };
      const arrived = (socket: net.Socket) => {
        arrivedSince = true;
        taken.add(socket);
        clearTimeout(quiet);
        quiet = setTimeout(closeIfStillQuiet, ACCEPT_QUIET_MS);
      };
      const most = setTimeout(close, ACCEPT_MOST_MS);
      this.server.on('connection', arrived);
      quiet = setTimeout(closeIfStillQuiet, ACCEPT_QUIET_MS);
    });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, listener: http.RequestListener): void {
    if (this.stopping) {
      refuse(req, res);
      return;
    }
    const scope = new WorkScope();
    this.inFlight.set(res, scope);
    res.once('close', () => {
      this.inFlight.delete(res);
      if (this.inFlight.size === 0) this.idle?.();
    });
    runInScopeUntil(
      scope,
      () => listener(req, res),
      (release) => holdUntilClosed(res, release),
    );
  }

  /** Resolves true once no request is in flight, false when `ms` passed first. */
  private drained(ms: number): Promise<boolean> {
    if (this.inFlight.size === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.idle = undefined;
        resolve(false);
      }, ms);
      this.idle = () => {
        clearTimeout(timer);
        this.idle = undefined;
        resolve(true);
      };
    });
  }
}

/** The connections taken during a stop, until each closes (the request on one is refused, which closes it). */
class ConnectionsTaken {
  private readonly open = new Set<net.Socket>();
  private emptied = () => {};

  add(socket: net.Socket): void {
    this.open.add(socket);
    socket.once('close', () => {
      this.open.delete(socket);
      if (this.open.size === 0) this.emptied();
    });
  }

  /** Settles once every connection taken has closed, or `boundMs` after it is asked. */
  allClosed(boundMs: number): Promise<void> {
    return new Promise((done) => {
      if (this.open.size === 0) return done();
      const bound = setTimeout(done, boundMs);
      this.emptied = () => {
        clearTimeout(bound);
        done();
      };
    });
  }
}

/** A request that arrived on an open connection after the stop began: 503 serviceStopping, and the connection closes. */
function refuse(req: http.IncomingMessage, res: http.ServerResponse): void {
  const body = JSON.stringify(
    errorEnvelope(req.url ?? '', 503, { code: 'serviceStopping', retryAfter: RETRY_AFTER_SECONDS }, MESSAGES.serviceStopping),
  );
  req.resume();
  res.shouldKeepAlive = false;
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'retry-after': String(RETRY_AFTER_SECONDS),
    connection: 'close',
  });
  res.end(body);
}
