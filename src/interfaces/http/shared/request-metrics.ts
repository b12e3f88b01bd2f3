import type { RequestHandler } from 'express';
import type { HttpMetrics } from '../../../application/observability/ports';

/** The route label of requests no route answered (unknown paths, refusals before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Reports every answered request with the template of the route that answered it
 * (`/api/websites/:id`), never the path as sent, so the number of series stays that of the routes.
 */
export function requestMetrics(metrics: HttpMetrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const template: unknown = req.route?.path;
      const route = typeof template === 'string' ? template : UNMATCHED_ROUTE;
      metrics.requestServed(req.method, route, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
