import type { Logger } from 'pino';
import type { ScheduleWakeups } from '../../application/scheduling/ports';
import { listenToNotices } from '../persistence/pg-notices';

/**
 * Wake-ups from PostgreSQL: `LISTEN check_schedule` (notified by the schedule's triggers) on a
 * connection per listener. Once listening again after a lost connection it wakes the worker, since
 * notices sent meanwhile were lost.
 */
export class PgScheduleWakeups implements ScheduleWakeups {
  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
  ) {}

  listen(wake: () => void): Promise<() => Promise<void>> {
    return listenToNotices(this.databaseUrl, 'check_schedule', 'schedule wake-up', this.logger, { notice: wake, resumed: wake });
  }
}
