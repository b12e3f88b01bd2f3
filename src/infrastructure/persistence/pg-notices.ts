import pg from 'pg';
import type { Logger } from 'pino';

/** How long to wait before listening again after the connection failed. */
const RETRY_MS = 1_000;

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
 * logged as `<what> channel lost` and opened again a second later; callers hear of both, since
 * notices sent meanwhile were lost. Resolves once listening; the answer stops listening.
 */
export async function listenToNotices(
  databaseUrl: string, channel: string, what: string, logger: Logger, handlers: NoticeHandlers,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const later = (error?: Error) => {
    if (stopped) return;
    logger.warn({ err: error }, `${what} channel lost; listening again shortly`);
    clearTimeout(retry);
    retry = setTimeout(() => void open().then(() => handlers.resumed?.(), later), RETRY_MS);
  };
  const open = async (): Promise<void> => {
    const current = new pg.Client({ connectionString: databaseUrl });
    client = current;
    let lost = false;
    const drop = (error?: Error) => {
      if (lost) return;
      lost = true;
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
    } catch (error) {
      lost = true;
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
