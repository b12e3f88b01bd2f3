import type { Logger } from 'pino';
import type { ScheduleWakeups } from '../../../application/scheduling/ports';
import type { ProbeApiClient } from './probe-api-client';

/** Waits between attempts while the server cannot be reached: doubling from the first to the last. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 15_000;
/** How long each wait call is held by the server. */
const WAIT_MS = 20_000;

/**
 * The schedule's wake-ups for a probe: a wait call held by the server until the schedule changes,
 * made again as soon as it answers. Woken, the probe's worker claims and reads the changes at once;
 * otherwise it pumps every few seconds, as the service's woken workers do. While the server cannot
 * be reached it tries again, waiting longer each time, and wakes the worker once it is back (changes
 * made meanwhile were not announced).
 */
export class RemoteScheduleWakeups implements ScheduleWakeups {
  constructor(
    private readonly api: ProbeApiClient,
    private readonly logger: Logger,
  ) {}

  async listen(wake: () => void): Promise<() => Promise<void>> {
    const stopping = new AbortController();
    const running = this.loop(wake, stopping.signal);
    return async () => {
      stopping.abort();
      await running;
    };
  }

  private async loop(wake: () => void, stopping: AbortSignal): Promise<void> {
    let retryMs = RETRY_FIRST_MS;
    let failing = false;
    while (!stopping.aborted) {
      try {
        const { woken } = await this.api.call<{ woken: boolean }>('/schedule/wait', { timeoutMs: WAIT_MS }, stopping);
        if (failing) this.logger.debug('schedule wake-ups back');
        if (woken || failing) wake();
        failing = false;
        retryMs = RETRY_FIRST_MS;
      } catch (error) {
        if (stopping.aborted) return;
        if (!failing) this.logger.debug({ err: error }, 'schedule wake-ups unavailable: the worker pumps on its timer');
        failing = true;
        await new Promise((resolve) => setTimeout(resolve, retryMs));
        retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
      }
    }
  }
}
