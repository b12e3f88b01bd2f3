import type { Deadline } from './ports';

const unsubscribed = () => undefined;

/** The Deadline a run gives its checker: `pass()` calls the listeners still subscribed, once. */
export class CheckDeadline implements Deadline {
  passed = false;
  private listeners: (() => void)[] = [];
  private controller: AbortController | null = null;

  /** A deadline that passes `ms` from now (a timer of its own, never cleared: for tests, not for runs that end early). */
  static after(ms: number): CheckDeadline {
    const deadline = new CheckDeadline();
    setTimeout(() => deadline.pass(), ms).unref();
    return deadline;
  }

  /**
   * A deadline that passes `ms` from now, and `clear` to call once the work it bounds has ended
   * (on every path: a `finally`), so its timer neither fires late nor keeps the process waiting.
   */
  static within(ms: number): { deadline: CheckDeadline; clear: () => void } {
    const deadline = new CheckDeadline();
    const timer = setTimeout(() => deadline.pass(), ms);
    return { deadline, clear: () => clearTimeout(timer) };
  }

  onPassed(listener: () => void): () => void {
    if (this.passed) return unsubscribed;
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.passed) this.controller.abort();
    }
    return this.controller.signal;
  }

  pass(): void {
    if (this.passed) return;
    this.passed = true;
    this.controller?.abort();
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}
