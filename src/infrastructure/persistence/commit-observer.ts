import type pg from 'pg';
import { abortConnection } from './stall-watch';
import { commits, currentScope } from './work-scope';

/** Connections whose statements are observed (each once). */
const observed = new WeakSet<object>();

/**
 * Notes on the current work's scope when a statement on this connection that commits something (a
 * COMMIT, or a write outside a transaction) is sent: a stop then lets that request finish instead of
 * cutting it (work-scope.ts). knex runs its statements with a callback, the form observed here.
 */
export function observeCommits(connection: pg.Client): void {
  if (observed.has(connection)) return;
  observed.add(connection);
  let inTransaction = false;
  const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
  (connection as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const config = args[0];
    const text = typeof config === 'string' ? config : String((config as { text?: unknown } | null)?.text ?? '');
    const callback = args[args.length - 1];
    if (typeof callback !== 'function') return query(...args);
    const scope = currentScope();
    const wasInTransaction = inTransaction;
    // Work cut by a stop commits nothing: its connection is reset before its COMMIT (or write outside
    // a transaction) is sent, so the statement fails as on any lost connection and the server rolls back.
    if (scope?.cut && commits(text, wasInTransaction)) abortConnection(connection);
    // Sent, it may commit whatever comes back (a stop resetting the connection now could not undo
    // it): from here the request runs to its answer rather than be cut.
    else if (scope && commits(text, wasInTransaction)) scope.noteCommitSent();
    if (/^\s*(begin|start transaction)\b/i.test(text)) inTransaction = true;
    else if (/^\s*(commit|rollback)\s*;?\s*$/i.test(text)) inTransaction = false;
    return query(...args);
  };
}
