import pg from 'pg';
import type { Logger } from 'pino';
import type { ScheduleWakeups } from '../../application/scheduling/ports';

const CHANNEL = 'check_schedule';
/** How long to wait before listening again after the connection failed. */
const RETRY_MS = 1_000;

/**
 * Wake-ups from PostgreSQL: one connection per listener, `LISTEN check_schedule` (notified by the
 * schedule's triggers). A lost connection (a server restart, a terminated backend) is logged and
 * opened again after a second; once listening again it wakes the worker, since notices sent
 * meanwhile were lost.
 */
export class PgScheduleWakeups implements ScheduleWakeups {
  constructor(private readonly databaseUrl: string, private readonly logger: Logger) {}

  async listen(wake: () => void): Promise<() => Promise<void>> {
    let stopped = false;
    let client: pg.Client | undefined;
    let retry: NodeJS.Timeout | undefined;
    const later = (error?: Error) => {
      if (stopped) return;
      this.logger.warn({ err: error }, 'schedule wake-up channel lost; listening again shortly');
      clearTimeout(retry);
      retry = setTimeout(() => void open().then(wake, later), RETRY_MS);
    };
    const open = async (): Promise<void> => {
      const current = new pg.Client({ connectionString: this.databaseUrl });
      client = current;
      let lost = false;
      const drop = (error?: Error) => {
        if (lost) return;
        lost = true;
        current.end().catch(() => undefined);
        later(error);
      };
      current.on('error', drop);
      current.on('end', () => drop());
      current.on('notification', () => wake());
      try {
        await current.connect();
        await current.query(`LISTEN ${CHANNEL}`);
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
}
