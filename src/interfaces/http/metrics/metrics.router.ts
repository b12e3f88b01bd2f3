import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type Router } from 'express';
import type { MetricsExposition } from '../../../application/observability/ports';
import { AppError } from '../../../domain/shared/app-error';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics in Prometheus' text format. With a token, only `Authorization: Bearer <token>`
 * reads it (compared in constant time); anything else is the 401 envelope.
 */
export function metricsRouter(exposition: MetricsExposition, token: string | undefined): Router {
  const expected = token === undefined ? undefined : digest(token);
  return express.Router().get('/metrics', async (req, res) => {
    if (expected) {
      const sent = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
      if (sent === undefined || !timingSafeEqual(digest(sent), expected)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        throw new AppError('unauthorized');
      }
    }
    const text = await exposition.render();
    res.setHeader('Cache-Control', 'no-store');
    res.type(exposition.contentType).send(text);
  });
}
