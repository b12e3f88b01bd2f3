import type { AppConfig } from './config';

interface SystemError extends Error {
  code?: string;
  syscall?: string;
  address?: string;
  port?: number;
  path?: string;
  errors?: unknown[];
}

/** PostgreSQL's error classes that mean "the server refused who or what we asked for". */
const PG_REFUSALS: Record<string, string> = {
  '28P01': 'the database refused the password',
  '28000': 'the database refused the user',
  '3D000': 'the database does not exist',
  '53300': 'the database has no connection left',
  '57P03': 'the database is starting up or shutting down',
};

const oneLine = (text: string) => text.trim().replace(/(:?)\s*\n\s*/g, (_, colon: string) => (colon ? ': ' : '; '));

const where = (error: SystemError) => {
  const host = error.address?.includes(':') ? `[${error.address}]` : error.address;
  return [host, error.port].filter((part) => part !== undefined).join(':');
};

/**
 * Why the service could not start, in one line for `Failed to start: <this>`: the cause an
 * operator acts on (which port is taken, which database refused and why), never a stack or an
 * empty message. Errors with nothing better to say keep their own message.
 */
export function describeStartFailure(error: unknown, config?: Pick<AppConfig, 'port' | 'host'>): string {
  if (!(error instanceof Error)) return error === undefined ? 'an unknown error (no detail was given)' : oneLine(String(error));
  const e = error as SystemError;
  // Connecting to a name with several addresses fails with all of them: the first says enough.
  if (e.errors?.length && e.errors[0] instanceof Error && !e.message) return describeStartFailure(e.errors[0], config);
  if (e.syscall === 'listen') {
    const port = e.port ?? config?.port;
    const host = e.address ?? config?.host;
    if (e.code === 'EADDRINUSE') return `port ${port} is in use (EADDRINUSE)`;
    if (e.code === 'EACCES') return `port ${port} needs more privileges than this process has (EACCES)`;
    if (e.code === 'EADDRNOTAVAIL') return `HOST ${host} is not an address of this machine (EADDRNOTAVAIL)`;
  }
  if (e.syscall === 'connect' && e.code === 'ECONNREFUSED') return `the database at ${where(e)} refused the connection (ECONNREFUSED)`;
  if (e.syscall === 'connect' && e.code === 'ETIMEDOUT') return `the database at ${where(e)} did not answer (ETIMEDOUT)`;
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN')
    return `the database host ${e.message.split(' ').pop()} does not resolve (${e.code})`;
  if (e.code && PG_REFUSALS[e.code]) return `${PG_REFUSALS[e.code]}: ${oneLine(e.message)} (${e.code})`;
  const message = oneLine(e.message) || e.name;
  return e.code && !message.includes(e.code) ? `${message} (${e.code})` : message;
}
