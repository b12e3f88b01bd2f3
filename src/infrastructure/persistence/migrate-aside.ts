import { extname, join } from 'node:path';
import { fork } from 'node:child_process';
import type { Logger } from 'pino';
import type { DatabaseDeadlines } from './stall-watch';

/**
 * Migrating beside the service: pending migrations are applied by a short-lived child process
 * (`migration-child.ts`) that loads MikroORM's migrator (`@mikro-orm/migrations`, umzug and its
 * command-line half) and this build's migrations, opens its own ORM on the same database, migrates
 * under the advisory lock and ends. The service's own process never loads them, and the memory they
 * took goes back to the system with the child (docs/decisions.md "Migrations in a child process").
 */

/** A line the child logs through the service's logger (the level, its fields, its message). */
export interface MigrationLogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly fields?: Record<string, unknown>;
  readonly message: string;
}

/** What the child sends: log lines while it works, then the build's migration names or the failure. */
export type MigrationMessage =
  { readonly log: MigrationLogLine } | { readonly done: readonly string[] } | { readonly failure: PostedError };

/**
 * An error as it crosses from the child: its name, message and stack, its own plain fields (a
 * system error's `code`, `syscall`, `address`, `port`; PostgreSQL's `code`, `detail`...), and the
 * errors it carries (`errors` of an AggregateError, `cause`), so that the start's failure reads as
 * if the process had met it itself (`describeStartFailure`).
 */
export interface PostedError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  readonly fields: Record<string, string | number | boolean | null>;
  readonly errors?: PostedError[];
  readonly cause?: PostedError;
}

export function postableError(error: unknown, depth = 0): PostedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: PostedError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string | number | boolean | null;
  }
  const errors = (error as { errors?: unknown }).errors;
  const { cause } = error as { cause?: unknown };
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    fields,
    ...(Array.isArray(errors) && depth < 3 ? { errors: errors.map((e) => postableError(e, depth + 1)) } : {}),
    ...(cause !== undefined && depth < 3 ? { cause: postableError(cause, depth + 1) } : {}),
  };
}

/** The error again, on this side. */
export function postedError(posted: PostedError): Error {
  const error = Object.assign(new Error(posted.message), posted.fields);
  Object.defineProperty(error, 'name', { value: posted.name, enumerable: false, configurable: true, writable: true });
  if (posted.stack) error.stack = posted.stack;
  if (posted.errors) Object.assign(error, { errors: posted.errors.map(postedError) });
  if (posted.cause) Object.assign(error, { cause: postedError(posted.cause) });
  return error;
}

/** What the child is given (over its IPC channel: the URL holds a password, so not in its arguments). */
export interface MigrationWork {
  readonly url: string;
  readonly deadlines: DatabaseDeadlines;
  /** Whether the parent logs debug lines (the child sends them only then). */
  readonly debug: boolean;
}

/** The child's argument: its entry module runs the migrations only in a process started with it. */
export const MIGRATION_CHILD = 'wsm-migrations';

/**
 * How the child is started: from the compiled `.js`, plain node with no flags (this process's own,
 * such as `--max-semi-space-size`, `--inspect` or `--cpu-prof`, are not passed on: the child lives
 * a second or two); from the TypeScript source (the tests), with tsx's loader.
 */
export function migrationChild(): { readonly entry: string; readonly execArgv: readonly string[] } {
  const extension = extname(__filename);
  return { entry: join(__dirname, `migration-child${extension}`), execArgv: extension === '.ts' ? ['--import', 'tsx'] : [] };
}

/**
 * Applies pending migrations in a child process and answers this build's migration names, in
 * order. Rejects with the failing migration's error, or, if the child ends before it answered
 * (killed, crashed), with its exit code or signal. The child ends by itself once it answered; on
 * any failure, and if this process exits first, it is killed.
 */
export function migrateAside(url: string, deadlines: DatabaseDeadlines, logger?: Logger): Promise<readonly string[]> {
  const { entry, execArgv } = migrationChild();
  const work: MigrationWork = { url, deadlines, debug: logger?.isLevelEnabled('debug') ?? false };
  return new Promise((resolve, reject) => {
    const child = fork(entry, [MIGRATION_CHILD], { execArgv: [...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const stop = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    // This process ending (a start abandoned by process.exit) takes the child with it.
    process.once('exit', stop);
    let answered = false;
    const fail = (error: Error) => {
      if (answered) return;
      answered = true;
      stop();
      reject(error);
    };
    child.on('message', (message: MigrationMessage) => {
      if ('log' in message) {
        const { level, fields, message: text } = message.log;
        if (fields) logger?.[level](fields, text);
        else logger?.[level](text);
      } else if ('done' in message) {
        // Its ORM is closed by now; it disconnects and ends, and what it loaded goes with it.
        answered = true;
        resolve(message.done);
      } else {
        fail(postedError(message.failure));
      }
    });
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      process.off('exit', stop);
      fail(new Error(`the migrations' child process ended (${signal ?? `exit code ${code}`}) before it answered`));
    });
    child.send(work, (error) => {
      if (error) fail(error);
    });
  });
}
