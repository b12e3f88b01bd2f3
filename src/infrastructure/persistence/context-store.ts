import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whether this node keeps AsyncLocalStorage on async hooks (Node 20, and 22-23 without
 * `--experimental-async-context-frame`). There, once a store is entered, every promise, socket
 * and timer of the process calls the hooks until every store is disabled again: about a sixth of
 * an HTTP check's CPU on Node 20 (docs/check-engine.md). Node 24 keeps stores in a context frame,
 * which costs nothing while no store is entered, and has no `_propagate`.
 */
const ON_ASYNC_HOOKS = typeof (AsyncLocalStorage.prototype as { _propagate?: unknown })._propagate === 'function';

/**
 * A value that follows one piece of work through everything it starts (an HTTP request's scope, its
 * caller for the audit, a transaction's handle), on node's AsyncLocalStorage, held only while some
 * work is in it: when the last work ends (its promise settles, or its `release` is called) the
 * store is disabled, so a process whose checks run between requests and transactions does not pay
 * the async hooks for them. What a piece of work started and left running after it ended sees no
 * value once the store is released (a stray timer of a finished request is no longer that request's).
 */
export class ContextStore<T> {
  private readonly storage = new AsyncLocalStorage<T>();
  private held = 0;

  /** The value of the work running now, if any holds one. */
  get current(): T | undefined {
    return this.storage.getStore();
  }

  /** Runs `work` with `value`, held until it returns, or, when it answers a promise, until that settles. */
  run<R>(value: T, work: () => R): R {
    const release = this.hold();
    let result: R;
    try {
      result = this.storage.run(value, work);
    } catch (error) {
      release();
      throw error;
    }
    if (result instanceof Promise) return result.finally(release) as R;
    release();
    return result;
  }

  /**
   * Runs `work` with `value`, held until `ended` calls the release it is handed: for work that ends
   * with an event rather than a promise (an HTTP request ends when its response closes, long after
   * its handler returned).
   */
  runUntil(value: T, work: () => void, ended: (release: () => void) => void): void {
    const release = this.hold();
    ended(release);
    this.storage.run(value, work);
  }

  private hold(): () => void {
    this.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
      if (this.held === 0 && ON_ASYNC_HOOKS) this.storage.disable();
    };
  }
}
