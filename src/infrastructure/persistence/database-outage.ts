/**
 * Whether a failure means PostgreSQL could not be reached or went away (a restart, a failover, a
 * network cut) rather than refusing the statement: such a request was not committed (its
 * transaction died with its connection) and may be retried as it is. Reads the error and its
 * causes (MikroORM wraps the driver's error; knex and pg add their own).
 */
export function isDatabaseOutage(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (outageSign(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Whether a failure is the database work of a request cut at its stop's grace (persistence/work-scope.ts). */
export function isCutByStop(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.name === 'ServiceStoppingError') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** SQLSTATEs of a server that is gone or not (yet) taking connections. */
const SERVER_STATES = new Set([
  '57P01', // admin_shutdown: the server is stopping (fast shutdown ends every session)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
]);

/** Socket failures of a connection to the server. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

/** What pg and knex say of a connection that died under them (they set no code). */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Timeout acquiring a connection',
  // pg-pool gave up waiting for a connection (its connectionTimeoutMillis), or pg for the server's start-up answer
  'timeout exceeded when trying to connect',
  'timeout expired',
  // the stall watch judged the server silent (persistence/stall-watch.ts)
  'the database is not answering',
  // knex ends a transaction whose connection failed and answers its later statements with this
  'Transaction query already complete',
];

function outageSign(error: Error): boolean {
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08') || SERVER_STATES.has(code) || SOCKET_CODES.has(code)) return true;
    // A Unix socket that is not there (yet): the server is not running.
    if (code === 'ENOENT' && syscall === 'connect') return true;
  }
  return DRIVER_MESSAGES.some((message) => error.message.includes(message));
}
