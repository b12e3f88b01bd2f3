import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { METRICS, METRICS_EXPOSITION, type Metrics } from '../application/observability/ports';
import { PrometheusMetrics } from '../infrastructure/observability/prometheus-metrics';
import type { JobRunner } from '../infrastructure/scheduling/agenda-job-runner';
import { requestMetrics } from '../interfaces/http/shared/request-metrics';
import { metricsRouter } from '../interfaces/http/metrics/metrics.router';
import { errorHandler, notFoundHandler } from '../interfaces/http/shared/error-handler';
import { meteredJob } from '../interfaces/jobs/metered-job';
import type { JobDefinition } from '../interfaces/jobs/job-definition';
import type { Ctx } from './modules/bindings';
import { CONFIG } from './tokens';

const collecting = (container: Container) => container.isBound(METRICS);

/**
 * What the API's listener adds for metrics: request metering, and GET /metrics when a token guards
 * it and no listener of its own serves it. Nothing when metrics are off.
 */
export function metricsHandlers(get: Ctx['get']): RequestHandler[] {
  const metrics = get(METRICS, { optional: true });
  if (!metrics) return [];
  const { token, port } = get(CONFIG).metrics;
  const handlers: RequestHandler[] = [requestMetrics(metrics)];
  if (token !== undefined && port === undefined) handlers.push(metricsRouter(get(METRICS_EXPOSITION), token));
  return handlers;
}

export interface MetricsListener {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * With METRICS_PORT, /metrics is served by a listener of its own on METRICS_HOST (loopback unless
 * set), still behind METRICS_TOKEN when there is one; every other path there is a 404.
 */
export async function startMetricsListener(get: Ctx['get'], logger: Logger): Promise<MetricsListener | undefined> {
  const { token, port, host } = get(CONFIG).metrics;
  if (port === undefined) return undefined;
  const app = express();
  app.disable('x-powered-by');
  app.use(metricsRouter(get(METRICS_EXPOSITION), token));
  app.use(notFoundHandler);
  app.use(errorHandler);
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  logger.info({ url: `${url}/metrics` }, 'metrics listening');
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Every job, metered when metrics are on. */
export const meteredJobs = (container: Container, jobs: JobDefinition[]): JobDefinition[] =>
  collecting(container) ? jobs.map((job) => meteredJob(job, container.get<Metrics>(METRICS))) : jobs;

/** Adds the job system's PostgreSQL pool to the pools the metrics watch. */
export function watchJobPool(container: Container, runner: JobRunner): void {
  if (collecting(container)) container.get(PrometheusMetrics).watchPool('jobs', () => runner.poolUse());
}
