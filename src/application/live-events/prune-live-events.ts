import type { Clock } from '../shared/clock';
import type { LiveEventLog } from './ports';

/** How long the log keeps an event: a client away for longer reloads instead of resuming. */
export const LIVE_EVENT_RETENTION_MS = 24 * 60 * 60_000;

/** Forgets live events older than the retention (a job runs it). */
export class PruneLiveEvents {
  constructor(
    private readonly log: LiveEventLog,
    private readonly clock: Clock,
  ) {}

  execute(): Promise<number> {
    return this.log.prune(new Date(this.clock.now().getTime() - LIVE_EVENT_RETENTION_MS));
  }
}
