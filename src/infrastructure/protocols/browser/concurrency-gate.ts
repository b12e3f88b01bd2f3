import { ProbeError } from '../shared/probe-error';

/** At most `limit` holders at once; the others wait in order, or give up when their signal aborts. */
export class ConcurrencyGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Answers the release function (idempotent) once a place is free. */
  async acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) throw this.late();
    if (this.running < this.limit) {
      this.running++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const admit = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(admit);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(this.late());
      };
      this.waiting.push(admit);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    return this.releaser();
  }

  /** A place is handed straight to the next waiter, so the count only drops when nobody waits. */
  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }

  private late(): ProbeError {
    return new ProbeError('timeout', `No browser was free in time (at most ${this.limit} scenarios run at once)`);
  }
}
