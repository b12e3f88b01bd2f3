import type { Socket } from 'node:net';
import pg from 'pg';
import type { Logger } from 'pino';
import { currentScope, ServiceStoppingError, type WorkScope } from './work-scope';

/**
 * How long the service waits on PostgreSQL before it gives up on it. A stalled server (stopped,
 * frozen by its host, cut off behind a firewall that drops packets) refuses nothing: connections
 * open (the kernel completes the handshake), statements are sent, and nothing ever comes back.
 * Without these bounds every request waits for as long as the stall lasts.
 */
export interface DatabaseDeadlines {
  /** Opening a connection (TCP, start-up, authentication). */
  readonly connectMs: number;
  /** Waiting for a pooled connection, opening it included. */
  readonly acquireMs: number;
  /** How long the probe waits for `SELECT 1` before the server is judged stalled. */
  readonly stallMs: number;
  /** How long a connection may be held before the server is probed. */
  readonly suspectAfterMs: number;
}

export const DEFAULT_DATABASE_DEADLINES: DatabaseDeadlines = {
  connectMs: 5_000,
  acquireMs: 10_000,
  stallMs: 3_000,
  suspectAfterMs: 1_000,
};

/** What a statement or an acquisition fails with while the server is judged stalled (an outage: 503 databaseUnavailable). */
export class DatabaseStalledError extends Error {
  constructor() {
    super('the database is not answering (stalled)');
    this.name = 'DatabaseStalledError';
  }
}

/** A node-postgres client as far as ending it at once goes. */
type EndableClient = Pick<pg.Client, 'end'>;

/**
 * Ends a connection at once, whatever it is doing: its socket is reset (not half-closed, which
 * would wait for a server that does not answer), so PostgreSQL rolls back its open transaction
 * when it runs again, and the statement waiting on it fails with "Connection terminated".
 */
export function abortConnection(client: EndableClient): void {
  // `end()` marks the client as ending, so the closed socket is not reported as an error event;
  // it then destroys the socket itself when a query is active, else half-closes, hence the reset.
  client.end().catch(() => undefined);
  const stream = (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
  if (stream && !stream.destroyed) {
    // A reset (RST) where the socket is TCP; a Unix socket has none and is just closed.
    try {
      stream.resetAndDestroy();
    } catch {
      stream.destroy();
    }
  }
}

/** Asks the server whether it answers: true for any answer (an error reply too), false when it stays silent. */
export interface ServerProbe {
  answers(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * `SELECT 1` on a connection of its own (kept between probes, replaced after a silence). A server
 * that answers with a refusal (too many connections, starting up) answers: it is not stalled, and
 * the connections already working on it are left alone. Only silence until the timeout counts.
 */
export class SelectOneProbe implements ServerProbe {
  private client: pg.Client | undefined;

  constructor(private readonly url: string) {}

  async answers(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const silence = new Promise<'silent'>((resolve) => {
      timer = setTimeout(() => resolve('silent'), timeoutMs);
    });
    let outcome: 'answered' | 'silent' | 'refused';
    try {
      outcome = await Promise.race([this.selectOne().then(() => 'answered' as const), silence]);
    } catch {
      // A refusal came from the server, or the socket was refused or closed: either way not a silent server.
      outcome = 'refused';
    } finally {
      clearTimeout(timer);
    }
    if (outcome !== 'answered') this.drop();
    return outcome !== 'silent';
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) abortConnection(client);
  }

  private async selectOne(): Promise<void> {
    if (!this.client) {
      const client = new pg.Client({ connectionString: this.url, application_name: 'stall-probe' });
      client.on('error', () => undefined);
      this.client = client;
      await client.connect();
    }
    await this.client.query('select 1');
  }

  private drop(): void {
    const client = this.client;
    this.client = undefined;
    if (client) abortConnection(client);
  }
}

/**
 * Watches the connections the service holds and tells a stalled PostgreSQL from a busy one. While
 * some connection has been held longer than `suspectAfterMs`, it probes the server once a round on
 * a connection of its own. When the probe stays silent for `stallMs`, the server is stalled: every
 * held connection is reset (their statements fail, their transactions never commit) and new
 * acquisitions fail at once, so each request answers 503 databaseUnavailable within seconds
 * instead of waiting for the stall to end. A probe answered ends the stall. A slow statement on an
 * answering server is never cut: only silence is.
 */
export class StallWatch {
  private readonly held = new Map<EndableClient, { since: number; scope: WorkScope | undefined }>();
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private stalledSince: number | undefined;
  private readonly waiters = new Set<(error: Error) => void>();

  constructor(
    private readonly probe: ServerProbe,
    private readonly deadlines: DatabaseDeadlines,
    private readonly logger?: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the server is judged stalled now. */
  get stalled(): boolean {
    return this.stalledSince !== undefined;
  }

  /** Throws at once while the server is stalled (an acquisition that would only wait), or for work that was cut. */
  admit(): void {
    if (currentScope()?.cut) throw new ServiceStoppingError();
    if (this.stalled) throw new DatabaseStalledError();
  }

  /**
   * Takes a connection (`take` starts the pool's acquisition), failing as soon as the server is
   * judged stalled; a connection the pool hands over after that is given back with `release`.
   */
  async acquire<T>(take: () => Promise<T>, release: (connection: T) => unknown): Promise<T> {
    this.admit();
    this.watch();
    const acquisition = take();
    let fail: ((error: Error) => void) | undefined;
    const stalled = new Promise<never>((_resolve, reject) => {
      fail = reject;
      this.waiters.add(reject);
    });
    try {
      return await Promise.race([acquisition, stalled]);
    } catch (error) {
      // Lost to the stall (or failed): whatever the pool hands over later goes back to it.
      acquisition.then((connection) => release(connection)).catch(() => undefined);
      throw error;
    } finally {
      this.waiters.delete(fail!);
    }
  }

  /** A connection taken from a pool: watched until `release`. */
  hold(client: EndableClient): void {
    this.held.set(client, { since: this.now(), scope: currentScope() });
    this.watch();
  }

  release(client: EndableClient): void {
    this.held.delete(client);
    // Nothing held and no stall: the round would find nothing to watch, and its timer would wake the process only to stop.
    if (this.held.size === 0 && !this.stalled && !this.probing) this.unwatch();
  }

  /** Resets every held connection, or those held by work that was cut (the stop's last step for requests past their grace). */
  abortHeld(which: 'all' | 'cut' = 'all'): number {
    const clients = [...this.held].filter(([, { scope }]) => which === 'all' || scope?.cut === true).map(([client]) => client);
    for (const client of clients) {
      this.held.delete(client);
      abortConnection(client);
    }
    return clients.length;
  }

  async close(): Promise<void> {
    this.unwatch();
    await this.probe.close();
  }

  /** The round runs while a connection is held or the server is stalled. */
  private watch(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.round(), Math.max(100, Math.floor(this.deadlines.suspectAfterMs / 2)));
    this.timer.unref();
  }

  private unwatch(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async round(): Promise<void> {
    if (this.probing) return;
    const now = this.now();
    const suspicious = this.stalled || [...this.held.values()].some(({ since }) => now - since >= this.deadlines.suspectAfterMs);
    if (!suspicious) {
      if (this.held.size === 0) this.unwatch();
      return;
    }
    this.probing = true;
    this.logger?.debug({ held: this.held.size, stalled: this.stalled }, 'probing the database');
    try {
      const answered = await this.probe.answers(this.deadlines.stallMs);
      if (answered) {
        if (this.stalledSince !== undefined) {
          this.logger?.info({ stalledMs: this.now() - this.stalledSince }, 'the database answers again');
          this.stalledSince = undefined;
        }
        return;
      }
      if (this.stalledSince === undefined) {
        this.stalledSince = this.now();
        const aborted = this.abortHeld();
        this.logger?.warn(
          { aborted, silentMs: this.deadlines.stallMs },
          'the database does not answer: held connections reset, requests refused until it does',
        );
      } else {
        this.abortHeld();
      }
      const error = new DatabaseStalledError();
      for (const fail of this.waiters) fail(error);
      this.waiters.clear();
    } finally {
      this.probing = false;
    }
  }
}
