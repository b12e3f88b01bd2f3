import type { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

/**
 * The service's logger: JSON lines (one object per line, for collectors) unless it writes to a
 * terminal, where a person reads it: then each line is a sentence with its time and level, and the
 * fields after it (pino-pretty, in this process: no worker thread).
 */
export function serviceLogger(level: string, out: Writable & { isTTY?: boolean } = process.stdout): Logger {
  if (!out.isTTY) return pino({ level, base: { service: 'monitoring' } }, out);
  const stream = pretty({
    destination: out,
    colorize: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,service',
    singleLine: true,
    sync: true,
  });
  return pino({ level, base: { service: 'monitoring' } }, stream);
}

/** What the first start ends with: where to go, in words a person can act on. */
export const readyMessage = (publicBaseUrl: string): string =>
  `ready: open ${publicBaseUrl.replace(/\/+$/, '')}/ in a browser to sign up and add a monitor (the API reference is at /docs)`;
