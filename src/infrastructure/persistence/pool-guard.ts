import { appendFileSync } from 'node:fs';
import { ContextStore } from './context-store';

/**
 * The pool guard: a statement run on MikroORM's pool (`OrmPoolSql`, `POOL_SQL`: what the
 * repositories read through) while the same async call chain is inside `TransactionRunner.run`'s
 * work is refused with `StatementOnPoolInTransaction`, naming the statement. Such a statement holds
 * the transaction's connection while it waits for a second one of the same pool; a burst of those
 * transactions takes every connection and waits until the acquire timeout (pool starvation: 503
 * databaseUnavailable in `test/faults/stop-mid-burst.test.ts`). It runs on `sqlOf(tx)` instead.
 *
 * The guard routes nothing: it only knows "inside run" (a `ContextStore` mark the runner sets
 * around the work and clears when the work ends, so a promise left running after it is not taken
 * for inside). It is on when `NODE_ENV` is `test` or `POOL_IN_TRANSACTION_GUARD` is `on` (the
 * tests' root hooks set it, and the services they spawn inherit it); in production it is off and
 * costs nothing (no store is entered, the check answers at once), so a read it would refuse there
 * runs as before rather than failing a request. `POOL_IN_TRANSACTION_GUARD_LOG` names a file each
 * refusal is also appended to, with its stack (a refusal a job swallows is still found); with
 * `POOL_IN_TRANSACTION_GUARD=report` the statement is only written there and runs (to list every
 * such statement of a test run at once, rather than the first of each path).
 *
 * The plain pool (`SQL`) is not guarded: a transaction waiting for one of its connections waits for
 * a pool no transaction holds, so it cannot starve MikroORM's.
 */
interface Mark {
  open: boolean;
}

const storage = new ContextStore<Mark>();

let enabled: boolean | undefined;

export function poolGuardOn(): boolean {
  enabled ??= process.env.NODE_ENV === 'test' || ['on', 'report'].includes(process.env.POOL_IN_TRANSACTION_GUARD ?? '');
  return enabled;
}

/** Turns the guard on or off whatever the environment says (its unit test); `undefined` reads the environment again. */
export function setPoolGuard(on: boolean | undefined): void {
  enabled = on;
}

export class StatementOnPoolInTransaction extends Error {
  constructor(readonly statement: string) {
    super(
      `A statement ran on MikroORM's pool inside TransactionRunner.run's work (it would hold the transaction's connection while waiting for another): ${statement.replace(/\s+/g, ' ').slice(0, 200)}. Run it on sqlOf(tx), or, if it must stand alone, inside standingAlone(why, ...).`,
    );
    this.name = 'StatementOnPoolInTransaction';
  }
}

/** Runs a transaction's work marked "inside run" (the runner's; only when the guard is on). */
export function insideTransaction<T>(work: () => Promise<T>): Promise<T> {
  if (!poolGuardOn()) return work();
  const mark: Mark = { open: true };
  return storage.run(mark, work).finally(() => {
    mark.open = false;
  });
}

/** Refuses `text`, about to run on the pool, when the call chain is inside a transaction's work. */
export function checkPoolStatement(text: () => string): void {
  if (!poolGuardOn() || !storage.current?.open) return;
  const error = new StatementOnPoolInTransaction(text());
  const log = process.env.POOL_IN_TRANSACTION_GUARD_LOG;
  if (log) appendFileSync(log, `${error.stack ?? error.message}\n---\n`);
  if (log && process.env.POOL_IN_TRANSACTION_GUARD === 'report') return;
  throw error;
}

/**
 * The named escape: `work`'s statements stand alone on the pool although the call chain is inside
 * a transaction's work, for the reason `why` gives (read at the call; say it in a comment too).
 * Each use is a statement that must not join the transaction (it must commit, or be seen, at once).
 */
export function standingAlone<T>(why: string, work: () => Promise<T>): Promise<T> {
  if (why.trim() === '') throw new TypeError('standingAlone needs the reason the statement stands alone');
  if (!poolGuardOn()) return work();
  return storage.run({ open: false }, work);
}

/**
 * `port` with each of its methods run through `standingAlone(why, ...)`: for the composition root,
 * when a use case's reads inside its transaction's work stand alone on the pool on purpose.
 */
export function standingAloneAll<T extends object>(why: string, port: T): T {
  return new Proxy(port, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => standingAlone(why, () => Promise.resolve(value.apply(target, args)));
    },
  });
}
