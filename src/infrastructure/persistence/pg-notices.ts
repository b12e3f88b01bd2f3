import pg from 'pg';
import type { Logger } from 'pino';

/** Waits before listening again: the first after a second, each next twice as long, at most 30 s. */
export interface RetryDelays {
  readonly firstMs: number;
  readonly mostMs: number;
}

const RETRY: RetryDelays = { firstMs: 1_000, mostMs: 30_000 };

export interface NoticeHandlers {
  /** One notice, with its payload ('' when none). */
  notice(payload: string): void;
  /** The connection is gone: notices sent from now until `resumed` are lost. */
  lost?(): void;
  /** Listening again after a loss. */
  resumed?(): void;
}

/**
 * Listens to one PostgreSQL notification channel on a connection of its own (`LISTEN` needs a
 * session, so not a pooled one). A lost connection (a server restart, a terminated backend) is
 * logged as `<what> channel lost` and opened again a second later, then after 2, 4... up to 30 s
 * while PostgreSQL stays out of reach (one warning per attempt); callers hear of the loss and of
 * the return, since notices sent meanwhile were lost. Resolves once listening; the answer stops
 * listening.
 */
export async function listenToNotices(
  databaseUrl: string,
  channel: string,
  what: string,
  logger: Logger,
  handlers: NoticeHandlers,
  delays: RetryDelays = RETRY,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  /** Attempts failed since the channel was last up. */
  let failures = 0;
  const later = (error?: Error) => {
    if (stopped) return;
    const retryInMs = Math.min(delays.mostMs, delays.firstMs * 2 ** failures);
    failures++;
    logger.warn({ err: error, retryInMs, failures }, `${what} channel lost; listening again shortly`);
    clearTimeout(retry);
    retry = setTimeout(
      () =>
        void open().then(() => {
          failures = 0;
          handlers.resumed?.();
        }, later),
      retryInMs,
    );
  };
  const open = async (): Promise<void> => {
    const current = new pg.Client({ connectionString: databaseUrl });
    client = current;
    // Only a connection that was listening can be lost; a failure before that is the attempt's (it rejects).
    let listening = false;
    const drop = (error?: Error) => {
      if (!listening) return;
      listening = false;
      current.end().catch(() => undefined);
      handlers.lost?.();
      later(error);
    };
    current.on('error', drop);
    current.on('end', () => drop());
    current.on('notification', (message) => handlers.notice(message.payload ?? ''));
    try {
      await current.connect();
      await current.query(`LISTEN ${channel}`);
      listening = true;
    } catch (error) {
      current.end().catch(() => undefined);
      throw error;
    }
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
