import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { DatabaseDeadlines } from './stall-watch';

/**
 * Migrating beside the service: pending migrations are applied by a worker thread that loads
 * MikroORM's migrator (`@mikro-orm/migrations`, umzug and its command-line half) and this build's
 * migrations, opens its own ORM on the same database, migrates under the advisory lock and ends.
 * The service's own process never loads them (about 300 modules and 8 MB resident kept for the
 * process's life only to run once at start; docs/decisions.md "Migrations in a worker thread").
 */

/** A line the worker logs through the service's logger (the level, its fields, its message). */
export interface MigrationLogLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly fields?: Record<string, unknown>;
  readonly message: string;
}

/** What the worker posts: log lines while it works, then the build's migration names or the failure. */
export type MigrationMessage =
  { readonly log: MigrationLogLine } | { readonly done: readonly string[] } | { readonly failure: PostedError };

/**
 * An error as it crosses from the worker: its name, message and stack, its own plain fields (a
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

/** What the worker is given. */
export interface MigrationWork {
  readonly url: string;
  readonly deadlines: DatabaseDeadlines;
  /** Whether the parent logs debug lines (the worker posts them only then). */
  readonly debug: boolean;
}

/** Marks the worker's data so its entry module runs only as the migrations' worker. */
export const MIGRATION_WORKER = 'wsm-migrations';

/**
 * Applies pending migrations in a worker thread and answers this build's migration names, in
 * order. Rejects with the failing migration's message (or the worker's, if it died).
 */
export function migrateAside(url: string, deadlines: DatabaseDeadlines, logger?: Logger): Promise<readonly string[]> {
  // The entry beside this module: compiled (.js), or, from the TypeScript source (the tests), through
  // tsx's require hook, which a worker does not inherit.
  const entry = join(__dirname, `migration-worker${extname(__filename)}`);
  const boot = `${extname(__filename) === '.ts' ? "require('tsx/cjs');" : ''}require(${JSON.stringify(entry)});`;
  const work: MigrationWork = { url, deadlines, debug: logger?.isLevelEnabled('debug') ?? false };
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    const worker = new Worker(boot, { eval: true, workerData: { role: MIGRATION_WORKER, work } });
    worker.on('message', (message: MigrationMessage) => {
      if ('log' in message) {
        const { level, fields, message: text } = message.log;
        if (fields) logger?.[level](fields, text);
        else logger?.[level](text);
      } else if ('done' in message) {
        // Its ORM is closed by now: the thread, and what it loaded, goes.
        settle(() => resolve(message.done));
        void worker.terminate();
      } else {
        settle(() => reject(postedError(message.failure)));
      }
    });
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) => settle(() => reject(new Error(`the migrations' worker stopped (${code}) before it answered`))));
  });
}
