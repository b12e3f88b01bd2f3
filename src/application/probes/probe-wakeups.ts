import type { Clock } from '../shared/clock';
import type { ScheduleWakeups } from '../scheduling/ports';
import type { ProbeRegistry } from './ports';
import { assertRegistered, type ProbeCaller } from './probe-identity';

/** Longest a probe's wait call is held (well under the probe's call timeout and proxies' idle limits). */
export const PROBE_WAIT_MAX_MS = 25_000;

/**
 * A probe's wait call, held until the schedule changes (the notice that wakes the service's own
 * workers: an edit, a trigger-check, a confirmation check, rows released) or the wait ends. A probe
 * is woken as a worker in the service is: it pumps at once on a change and otherwise every few
 * seconds, instead of asking twice a second. One listener serves every waiting probe of the process;
 * it starts with the first wait.
 */
export class ProbeWakeups {
  private readonly waiters = new Set<(woken: boolean) => void>();
  private listening: Promise<() => Promise<void>> | null = null;
  private closed = false;

  constructor(
    private readonly notices: ScheduleWakeups,
    private readonly registry: ProbeRegistry,
    private readonly clock: Clock,
  ) {}

  /** Answers true when the schedule changed while waiting, false when `timeoutMs` passed first. */
  async wait(caller: ProbeCaller, timeoutMs: number): Promise<{ woken: boolean; serverTime: number }> {
    await assertRegistered(this.registry, caller, this.clock.now());
    if (this.closed) return { woken: false, serverTime: this.clock.now().getTime() };
    this.listening ??= this.notices
      .listen(() => this.wakeAll(true))
      .catch((error: unknown) => {
        this.listening = null;
        throw error;
      });
    // Without notices now (the next wait tries again), the wait only ends by its time: the probe still pumps every few seconds.
    await this.listening.catch(() => undefined);
    const woken = await new Promise<boolean>((resolve) => {
      const done = (answer: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(answer);
      };
      const timer = setTimeout(() => done(false), Math.min(timeoutMs, PROBE_WAIT_MAX_MS));
      this.waiters.add(done);
    });
    return { woken, serverTime: this.clock.now().getTime() };
  }

  /** Answers every wait (not woken) and stops listening: the host is stopping. */
  async close(): Promise<void> {
    this.closed = true;
    this.wakeAll(false);
    const listening = this.listening;
    this.listening = null;
    const stop = await listening?.catch(() => undefined);
    await stop?.();
  }

  private wakeAll(woken: boolean): void {
    for (const done of [...this.waiters]) done(woken);
  }
}
