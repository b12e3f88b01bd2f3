import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      id: string;
      /** A logger bound to this request's id (created on first use). */
      log: Logger;
    }
  }
}

/**
 * Gives each request an id (the client's X-Request-Id when well-formed, else a UUID), echoes it,
 * and logs one structured line when the response finishes. The per-request child logger is built
 * only if something logs through it. Successful requests to `quietPaths` (probes polled every few
 * seconds) log at debug level.
 */
export function requestLog(
  logger: Logger,
  options: {
    quietPaths?: readonly string[];
    /** Removes secrets carried in paths before logging. */ redactUrl?: (url: string) => string;
  } = {},
): RequestHandler {
  const quiet = new Set(options.quietPaths ?? []);
  return (req, res, next) => {
    const sent = req.headers['x-request-id'];
    const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', { get: () => (child ??= logger.child({ reqId: id })), configurable: true });
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const level = res.statusCode >= 500 ? 'error' : res.statusCode < 400 && quiet.has(req.path) ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          reqId: id,
          method: req.method,
          url: options.redactUrl ? options.redactUrl(req.originalUrl) : req.originalUrl,
          statusCode: res.statusCode,
          responseTimeMs: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request completed',
      );
    });
    next();
  };
}
