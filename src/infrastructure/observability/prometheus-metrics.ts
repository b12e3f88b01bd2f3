import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { CheckKind } from '../../domain/checks/check-request';
import type { CheckStatus } from '../../domain/checks/check-result';
import type { DeliveryOutcome, JobOutcome, Metrics, MetricsExposition } from '../../application/observability/ports';
import type { PoolUse } from '../persistence/pool-use';
import { SeriesCounter, SeriesHistogram, type CounterSeries, type HistogramSeries } from './series-metrics';

/** The notification outbox's backlog. */
export interface OutboxDepth {
  readonly pending: number;
  /** Age of the oldest undelivered row; 0 when there is none. */
  readonly oldestPendingSeconds: number;
}

export interface PrometheusMetricsOptions {
  /** Read at every scrape. */
  outboxDepth: () => Promise<OutboxDepth>;
  logger: Logger;
}

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** The worker starts due checks on a tick of a fraction of a second: finer buckets there, then minutes. */
const LATENESS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const JOB_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];
/**
 * How often the event-loop delay is sampled. Each sample is a timer wake-up of the process, so
 * coarser than prom-client's default: a stall still shows in full, only its start is less exact.
 */
const EVENT_LOOP_RESOLUTION_MS = 20;

/**
 * Every metric of the service in one registry of its own (never prom-client's global one): the
 * default process and event-loop metrics, HTTP durations by route template, the check engine, job
 * runs, notification deliveries, the outbox backlog and the database pools, the last two read at
 * scrape time.
 */
export class PrometheusMetrics implements Metrics, MetricsExposition {
  readonly contentType: string = Registry.PROMETHEUS_CONTENT_TYPE;
  private readonly registry = new Registry();
  private readonly pools = new Map<string, () => PoolUse | undefined>();

  private readonly checks = new SeriesCounter({
    name: 'monitoring_checks_total',
    help: 'Checks run by the engine, by check kind, location and status.',
    labelNames: ['kind', 'location', 'status'] as const,
    registers: [this.registry],
  });
  private readonly checkSeries = new Map<string, Map<string, Map<string, CounterSeries>>>();
  private readonly lateness = new SeriesHistogram({
    name: 'monitoring_check_start_lateness_seconds',
    help: 'How long after its slot (or its trigger) a check started, by location.',
    labelNames: ['location'] as const,
    buckets: LATENESS_BUCKETS,
    registers: [this.registry],
  });
  private readonly latenessSeries = new Map<string, HistogramSeries>();
  private readonly results = new SeriesCounter({
    name: 'monitoring_check_results_total',
    help: 'Check results recorded, or dropped because the worker had been fenced.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly recorded = this.results.series({ outcome: 'recorded' });
  private readonly dropped = this.results.series({ outcome: 'dropped' });
  private readonly http = new SeriesHistogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });
  private readonly httpSeries = new Map<string, Map<string, Map<number, HistogramSeries>>>();
  private readonly jobRuns = new Counter({
    name: 'monitoring_job_runs_total',
    help: 'Job runs by job name and outcome.',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly jobDuration = new Histogram({
    name: 'monitoring_job_duration_seconds',
    help: 'How long job runs took, by job name.',
    labelNames: ['job'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: 'monitoring_notification_deliveries_total',
    help: 'Notification delivery attempts by outcome.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(private readonly options: PrometheusMetricsOptions) {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_RESOLUTION_MS });
    for (const outcome of ['delivered', 'failed'] as const) this.deliveries.inc({ outcome }, 0);
    // Pools first: the registry reads metrics in registration order, so they are read before the
    // outbox query of the same scrape takes a connection.
    this.poolGauges();
    this.outboxGauges();
  }

  /** Reports a connection pool under this name at every scrape (undefined: the pool is gone). */
  watchPool(name: string, use: () => PoolUse | undefined): void {
    this.pools.set(name, use);
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  checkRan(kind: CheckKind, location: string, status: CheckStatus, latenessMs: number): void {
    let byLocation = this.checkSeries.get(kind);
    if (!byLocation) this.checkSeries.set(kind, (byLocation = new Map()));
    let byStatus = byLocation.get(location);
    if (!byStatus) byLocation.set(location, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) byStatus.set(status, (series = this.checks.series({ kind, location, status })));
    series.inc();
    let late = this.latenessSeries.get(location);
    if (!late) this.latenessSeries.set(location, (late = this.lateness.series({ location })));
    late.observe(latenessMs / 1000);
  }

  resultsRecorded(recorded: number, dropped: number): void {
    this.recorded.inc(recorded);
    this.dropped.inc(dropped);
  }

  requestServed(method: string, route: string, statusCode: number, seconds: number): void {
    let byMethod = this.httpSeries.get(route);
    if (!byMethod) this.httpSeries.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(statusCode);
    if (!series) byStatus.set(statusCode, (series = this.http.series({ method, route, status_code: String(statusCode) })));
    series.observe(seconds);
  }

  jobRan(job: string, outcome: JobOutcome, seconds: number): void {
    this.jobRuns.inc({ job, outcome });
    this.jobDuration.observe({ job }, seconds);
  }

  notificationDelivery(outcome: DeliveryOutcome): void {
    this.deliveries.inc({ outcome });
  }

  private outboxGauges(): void {
    const { outboxDepth, logger } = this.options;
    // Both gauges come from one query per scrape: the second collector joins the read in flight.
    let inFlight: Promise<OutboxDepth | undefined> | undefined;
    const read = () =>
      (inFlight ??= outboxDepth()
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'metrics: could not read the notification outbox');
          return undefined;
        })
        .finally(() => (inFlight = undefined)));
    const gauge = (name: string, help: string, value: (depth: OutboxDepth) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        // A failed read leaves the gauge without a value rather than failing the scrape.
        async collect() {
          const depth = await read();
          if (depth) this.set(value(depth));
          else this.remove();
        },
      });
    gauge('monitoring_notification_outbox_pending', 'Notifications queued and not delivered yet.', (depth) => depth.pending);
    gauge(
      'monitoring_notification_outbox_oldest_pending_seconds',
      'Age of the oldest undelivered notification.',
      (depth) => depth.oldestPendingSeconds,
    );
  }

  private poolGauges(): void {
    const pools = this.pools;
    const gauge = (name: string, help: string, read: (use: PoolUse) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'] as const,
        registers: [this.registry],
        collect() {
          this.reset();
          for (const [pool, use] of pools) {
            const now = use();
            if (now) this.set({ pool }, read(now));
          }
        },
      });
    gauge('monitoring_db_pool_connections', 'PostgreSQL connections open in each pool.', (use) => use.total);
    gauge('monitoring_db_pool_idle_connections', 'PostgreSQL connections idle in each pool.', (use) => use.idle);
    gauge('monitoring_db_pool_waiting_requests', 'Requests waiting for a PostgreSQL connection in each pool.', (use) => use.waiting);
  }
}
