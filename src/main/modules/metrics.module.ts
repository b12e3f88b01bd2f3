import type { Logger } from 'pino';
import { METRICS, METRICS_EXPOSITION, type Metrics } from '../../application/observability/ports';
import { MeteredOutcomeRecorder } from '../../application/observability/metered-outcome-recorder';
import { OUTCOME_RECORDER, type OutcomeRecorder } from '../../application/scheduling/ports';
import type { Database, SqlRunner } from '../../infrastructure/persistence/database';
import { PreparedSql } from '../../infrastructure/persistence/prepared-sql';
import { PrometheusMetrics } from '../../infrastructure/observability/prometheus-metrics';
import { sqlOutboxDepth } from '../../infrastructure/observability/sql-outbox-depth';
import { metricsExposed, type AppConfig } from '../config';
import { LOGGER, SQL } from '../tokens';
import { bindings } from './bindings';
import { defineFront, type ContextModule } from './context-module';

/**
 * Prometheus metrics, when they are served (METRICS_TOKEN or METRICS_PORT): the registry with the
 * database pools it watches, and the engine's recording port metered by a decorator, so the engine
 * itself knows nothing of metrics. Otherwise nothing is bound and nothing is collected.
 */
export const metricsModule = (config: AppConfig, database: Database) =>
  bindings(({ bind, onActivation }) => {
    if (!metricsExposed(config)) return;
    bind(PrometheusMetrics)
      .toDynamicValue((c) => {
        const sql = c.get<SqlRunner>(SQL);
        const reads = c.get(PreparedSql);
        const metrics = new PrometheusMetrics({ outboxDepth: () => sqlOutboxDepth(sql), logger: c.get<Logger>(LOGGER) });
        metrics.watchPool('orm', () => database.poolUse().orm);
        metrics.watchPool('sql', () => database.poolUse().sql);
        metrics.watchPool('reads', () => reads.poolUse());
        return metrics;
      })
      .inSingletonScope();
    bind(METRICS).toService(PrometheusMetrics);
    bind(METRICS_EXPOSITION).toService(PrometheusMetrics);
    onActivation<OutcomeRecorder>(OUTCOME_RECORDER, (c, recorder) => new MeteredOutcomeRecorder(recorder, c.get<Metrics>(METRICS)));
  });

export const metricsContext: ContextModule = {
  name: 'metrics',
  bindings: ({ config, database }) => metricsModule(config, database),
  // Request metering sees every request, even one the path check refuses (and GET /metrics on the API's listener).
  // (Both loaded when used: they are Express handlers, which a host without HTTP never loads.)
  front: [defineFront({ needs: {}, build: async (_use, { get }) => ({ first: (await import('../metrics.js')).metricsHandlers(get) }) })],
  // With METRICS_PORT, /metrics on a listener of its own.
  workers: [
    { name: 'metrics listener', start: async ({ get, logger }) => (await import('../metrics.js')).startMetricsListener(get, logger) },
  ],
};
