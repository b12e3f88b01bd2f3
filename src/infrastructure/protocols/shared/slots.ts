import type { Deadline } from '../../../application/checks/ports';
import { checkTimedOut, ProbeError } from './probe-error';

/** A wait for a slot given up at its deadline: the work was never started (others were ahead), a timeout of the waiter's own side. */
export class TurnNotFree extends ProbeError {
  constructor(ahead: number) {
    super('timeout', `No connection to the receiver came free in time (${ahead} requests ahead or in flight)`);
    this.name = 'TurnNotFree';
  }
}

/**
 * At most `limit` holders at once; the others wait in order of arrival, each until its deadline
 * passes (then it gives up its place and fails with TurnNotFree). `acquire` answers the release,
 * which is safe to call more than once.
 */
export class Slots {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Holders now plus those waiting. */
  get busy(): number {
    return this.held + this.waiting.length;
  }

  acquire(deadline: Deadline): Promise<() => void> {
    if (deadline.passed) return Promise.reject(checkTimedOut());
    if (this.held < this.limit) {
      this.held++;
      return Promise.resolve(this.releaser());
    }
    const ahead = this.busy;
    return new Promise((resolve, reject) => {
      const grant = () => {
        unsubscribe();
        resolve(this.releaser());
      };
      const unsubscribe = deadline.onPassed(() => {
        const index = this.waiting.indexOf(grant);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(new TurnNotFree(ahead));
      });
      this.waiting.push(grant);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next)
        next(); // the slot passes on: held stays the same
      else this.held--;
    };
  }
}
