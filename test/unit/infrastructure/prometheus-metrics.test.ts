import { expect } from 'chai';
import pino from 'pino';
import { PrometheusMetrics } from '../../../src/infrastructure/observability/prometheus-metrics';
import type { OutboxDepth } from '../../../src/infrastructure/observability/prometheus-metrics';
import { Scrape } from '../../support/prometheus-text';

const silent = pino({ level: 'silent' });

function aRegistry(outbox: () => Promise<OutboxDepth> = async () => ({ pending: 0, oldestPendingSeconds: 0 })) {
  return new PrometheusMetrics({ outboxDepth: outbox, logger: silent });
}

const scrape = async (metrics: PrometheusMetrics) => Scrape.of(await metrics.render());

describe('PrometheusMetrics (the registry adapter)', () => {
  it('counts checks per kind, location and status, each label set its own series', async () => {
    const metrics = aRegistry();
    metrics.checkRan('http', 'eu-west', 'up', 10);
    metrics.checkRan('http', 'eu-west', 'up', 20);
    metrics.checkRan('http', 'eu-west', 'down', 30);
    metrics.checkRan('tcp', 'us-east', 'up', 40);

    const text = await scrape(metrics);
    expect(text.family('monitoring_checks_total').type).to.equal('counter');
    expect(text.value('monitoring_checks_total', { kind: 'http', location: 'eu-west', status: 'up' })).to.equal(2);
    expect(text.value('monitoring_checks_total', { kind: 'http', location: 'eu-west', status: 'down' })).to.equal(1);
    expect(text.value('monitoring_checks_total', { kind: 'tcp', location: 'us-east', status: 'up' })).to.equal(1);
    expect(text.labelSets('monitoring_checks_total')).to.have.length(3);
  });

  it('puts start lateness in cumulative second buckets per location, with sum and count', async () => {
    const metrics = aRegistry();
    metrics.checkRan('http', 'eu-west', 'up', 3); // 0.003 s
    metrics.checkRan('http', 'eu-west', 'up', 200); // 0.2 s
    metrics.checkRan('dns', 'eu-west', 'down', 90_000); // 90 s
    metrics.checkRan('http', 'us-east', 'up', 0);

    const text = await scrape(metrics);
    expect(text.family('monitoring_check_start_lateness_seconds').type).to.equal('histogram');
    const euWest = text.histogram('monitoring_check_start_lateness_seconds', { location: 'eu-west' })!;
    expect(euWest.count).to.equal(3);
    expect(euWest.sum).to.be.closeTo(90.203, 1e-9);
    expect(euWest.buckets).to.include({ '0.005': 1, '0.1': 1, '0.25': 2, '60': 2, '300': 3, '+Inf': 3 });
    expect(text.histogram('monitoring_check_start_lateness_seconds', { location: 'us-east' })!.buckets).to.include({
      '0.005': 1,
      '+Inf': 1,
    });
  });

  it('labels HTTP durations by method, route and status code', async () => {
    const metrics = aRegistry();
    metrics.requestServed('GET', '/api/websites/:id', 200, 0.02);
    metrics.requestServed('GET', '/api/websites/:id', 200, 0.03);
    metrics.requestServed('GET', '/api/websites/:id', 404, 0.001);

    const text = await scrape(metrics);
    const ok = text.histogram('http_request_duration_seconds', { method: 'GET', route: '/api/websites/:id', status_code: '200' })!;
    expect(ok.count).to.equal(2);
    expect(ok.sum).to.be.closeTo(0.05, 1e-9);
    expect(ok.buckets).to.include({ '0.01': 0, '0.025': 1, '0.05': 2 });
    expect(
      text.histogram('http_request_duration_seconds', { method: 'GET', route: '/api/websites/:id', status_code: '404' })!.count,
    ).to.equal(1);
  });

  it('counts recorded and dropped results, job runs and deliveries (present at zero before any)', async () => {
    const metrics = aRegistry();
    let text = await scrape(metrics);
    expect(text.value('monitoring_check_results_total', { outcome: 'recorded' })).to.equal(0);
    expect(text.value('monitoring_notification_deliveries_total', { outcome: 'delivered' })).to.equal(0);
    expect(text.value('monitoring_notification_deliveries_total', { outcome: 'failed' })).to.equal(0);

    metrics.resultsRecorded(5, 0);
    metrics.resultsRecorded(0, 2);
    metrics.jobRan('watches', 'succeeded', 0.2);
    metrics.jobRan('watches', 'failed', 1.5);
    metrics.notificationDelivery('delivered');
    text = await scrape(metrics);
    expect(text.value('monitoring_check_results_total', { outcome: 'recorded' })).to.equal(5);
    expect(text.value('monitoring_check_results_total', { outcome: 'dropped' })).to.equal(2);
    expect(text.value('monitoring_job_runs_total', { job: 'watches', outcome: 'succeeded' })).to.equal(1);
    expect(text.value('monitoring_job_runs_total', { job: 'watches', outcome: 'failed' })).to.equal(1);
    expect(text.histogram('monitoring_job_duration_seconds', { job: 'watches' })!.count).to.equal(2);
    expect(text.value('monitoring_notification_deliveries_total', { outcome: 'delivered' })).to.equal(1);
  });

  it('reads the outbox once per scrape, and leaves its gauges empty (not the scrape failed) when the read fails', async () => {
    let reads = 0;
    let failing = false;
    const metrics = aRegistry(async () => {
      reads++;
      if (failing) throw new Error('database down');
      return { pending: 7, oldestPendingSeconds: 42.5 };
    });
    let text = await scrape(metrics);
    expect(reads).to.equal(1);
    expect(text.value('monitoring_notification_outbox_pending')).to.equal(7);
    expect(text.value('monitoring_notification_outbox_oldest_pending_seconds')).to.equal(42.5);

    failing = true;
    text = await scrape(metrics);
    expect(text.value('monitoring_notification_outbox_pending')).to.equal(undefined);
    expect(text.value('monitoring_notification_outbox_oldest_pending_seconds')).to.equal(undefined);
    expect(text.has('process_cpu_user_seconds_total')).to.equal(true);
  });

  it('reports each watched pool at scrape time, and none once it is gone', async () => {
    const metrics = aRegistry();
    let jobs: { total: number; idle: number; waiting: number } | undefined = { total: 3, idle: 1, waiting: 4 };
    metrics.watchPool('orm', () => ({ total: 2, idle: 2, waiting: 0 }));
    metrics.watchPool('jobs', () => jobs);
    let text = await scrape(metrics);
    expect(text.value('monitoring_db_pool_connections', { pool: 'jobs' })).to.equal(3);
    expect(text.value('monitoring_db_pool_idle_connections', { pool: 'jobs' })).to.equal(1);
    expect(text.value('monitoring_db_pool_waiting_requests', { pool: 'jobs' })).to.equal(4);
    expect(text.value('monitoring_db_pool_connections', { pool: 'orm' })).to.equal(2);

    jobs = undefined;
    text = await scrape(metrics);
    expect(text.value('monitoring_db_pool_connections', { pool: 'jobs' })).to.equal(undefined);
    expect(text.value('monitoring_db_pool_connections', { pool: 'orm' })).to.equal(2);
  });

  it('has the default process metrics and the event-loop lag in its own registry', async () => {
    const a = await scrape(aRegistry());
    const b = await scrape(aRegistry());
    for (const text of [a, b]) {
      expect(text.family('nodejs_eventloop_lag_seconds').type).to.equal('gauge');
      expect(text.family('nodejs_eventloop_lag_p99_seconds').type).to.equal('gauge');
      expect(text.has('process_resident_memory_bytes')).to.equal(true);
    }
  });
});
