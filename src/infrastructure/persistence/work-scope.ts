import { ContextStore } from './context-store';

/**
 * One piece of work the host runs (an HTTP request) as the database sees it: the connections it
 * holds are known by it, and once it is cut (its stop's grace has passed) it takes no connection
 * any more and the ones it holds are reset, so what it had not committed never commits.
 */
export class WorkScope {
  private cutAt: number | undefined;
  private wrote = false;

  get cut(): boolean {
    return this.cutAt !== undefined;
  }

  /**
   * Whether something it wrote may be committed: a COMMIT (or a write outside a transaction) was
   * sent. It then runs to its answer: cutting it would answer 503 to a write that may have happened
   * (the server commits what it received before the connection's reset, and the client cannot tell).
   */
  get committed(): boolean {
    return this.wrote;
  }

  /** A statement that commits is being sent (noted before it leaves, not when it answers). */
  noteCommitSent(): void {
    this.wrote = true;
  }

  /**
   * From now on its database work fails (ServiceStoppingError), and what it holds is reset; refused
   * (answering false) once it has committed something.
   */
  cutNow(at: number = Date.now()): boolean {
    if (this.wrote) return false;
    this.cutAt ??= at;
    return true;
  }
}

/** Statements that change nothing on their own: a read, or a transaction's steps before its COMMIT. */
const NOT_A_COMMIT = /^\s*(select|show|begin|start transaction|savepoint|release|rollback|set|listen|unlisten|explain)\b/i;

/**
 * Whether a statement that succeeded committed a change: a COMMIT, or any other write outside a
 * transaction. Conservative: a statement it cannot tell counts as committed (such work is then
 * left to finish rather than cut).
 */
export function commits(text: string, inTransaction: boolean): boolean {
  if (/^\s*commit\b/i.test(text)) return true;
  return !inTransaction && !NOT_A_COMMIT.test(text);
}

const scopes = new ContextStore<WorkScope>();

/** Runs `work` (and everything it starts) in `scope`, until it returns (or its promise settles). */
export const runInScope = <T>(scope: WorkScope, work: () => T): T => scopes.run(scope, work);

/**
 * Runs `work` (and everything it starts) in `scope` until `ended` calls the release it is handed:
 * an HTTP request's scope lasts until its response closes.
 */
export const runInScopeUntil = (scope: WorkScope, work: () => void, ended: (release: () => void) => void): void =>
  scopes.runUntil(scope, work, ended);

/** The scope of the work running now, if the host gave it one. */
export const currentScope = (): WorkScope | undefined => scopes.current;

/** What database work of a cut scope fails with: the service is stopping and this request's grace is over. */
export class ServiceStoppingError extends Error {
  constructor() {
    super('the service is stopping: this request is past its grace');
    this.name = 'ServiceStoppingError';
  }
}
