import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { startApplication, type RunningApplication } from '../../../../src/main/application';
import { METRICS } from '../../../../src/application/observability/ports';
import { testConfig, testServer } from '../../../support/test-server';
import { aFreshDatabase, type FreshDatabase } from '../../../support/fresh-database';
import { apiAt, expectError, type ApiResponse, type RequestOptions } from '../../../support/http-client';
import { Scrape } from '../../../support/prometheus-text';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const TOKEN = 'metrics-token-0123456789abcdef';
const silent = pino({ level: 'silent' });

/** A client for an app of this test's own (never throws on 4xx/5xx). */
const call = (base: string, method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> =>
  apiAt(base, method, path, options);

/** A loopback site that answers 200 and counts its hits. */
async function aTarget() {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Scrapes until `ready` holds (fails with the last scrape's reason after `withinMs`). */
async function scrapeUntil(base: string, ready: (scrape: Scrape) => boolean, withinMs = 30_000): Promise<Scrape> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const response = await call(base, 'GET', '/metrics', { token: TOKEN });
    expect(response.status).to.equal(200);
    const scrape = await Scrape.of(response.body as string);
    if (ready(scrape)) return scrape;
    if (Date.now() > deadline) throw new Error('the metrics never showed what the test waits for');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('Prometheus /metrics', function () {
  this.timeout(90_000);

  describe('with METRICS_TOKEN: on the API listener, behind the bearer token', () => {
    let database: FreshDatabase;
    let app: RunningApplication;
    let target: Awaited<ReturnType<typeof aTarget>>;

    before(async () => {
      database = await aFreshDatabase('metrics');
      target = await aTarget();
      // A database of its own: the check worker and the jobs run everything in it, and nothing else.
      app = await startApplication(
        {
          ...testConfig({
            METRICS_TOKEN: TOKEN,
            CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
            MONITOR_LOCATIONS: 'eu-west',
            CHECK_LOCATIONS: 'eu-west',
          }),
          databaseUrl: database.url,
        },
        { logger: silent },
      );
    });
    after(async () => {
      await app?.stop();
      await target?.close();
      await database?.drop();
    });

    it('answers the 401 envelope without the token or with another one', async () => {
      const missing = await call(app.url, 'GET', '/metrics');
      expectError(missing, 401, 'unauthorized');
      expect(missing.body).to.include({ url: '/metrics' });
      expect(missing.headers.get('www-authenticate')).to.equal('Bearer realm="metrics"');
      expectError(await call(app.url, 'GET', '/metrics', { token: `${TOKEN}x` }), 401, 'unauthorized');
    });

    it('serves HTTP, engine, job, outbox, pool and runtime series that a Prometheus parser reads', async () => {
      const signedUp = await call(app.url, 'POST', '/api/auth/sign-up/email', {
        body: { name: 'Metrics Owner', email: 'owner@metrics.example', password: 'a long password', organizationName: 'Metrics Org' },
      });
      expect(signedUp.status, JSON.stringify(signedUp.body)).to.equal(200);
      const { token, user } = signedUp.body as { token: string; user: { organizationId: number } };
      const customer = await call(app.url, 'POST', '/api/customers', { token, body: { name: 'Shop', email: 'ops@shop.example' } });
      expect(customer.status, JSON.stringify(customer.body)).to.equal(200);
      const website = await call(app.url, 'POST', '/api/websites', {
        token,
        body: { customerId: (customer.body as { customer: { id: number } }).customer.id, url: target.url, locations: ['eu-west'] },
      });
      expect(website.status, JSON.stringify(website.body)).to.equal(201);
      const { publicId } = website.body as { publicId: string };
      for (let i = 0; i < 2; i++) expect((await call(app.url, 'GET', `/api/websites/${publicId}`, { token })).status).to.equal(200);
      expectError(await call(app.url, 'GET', '/api/websites/no-such-website', { token }), 404, 'websiteNotFound');
      expect((await call(app.url, 'GET', '/no/such/page')).status).to.equal(404);
      expect((await call(app.url, 'POST', `/api/websites/${publicId}/trigger-check`, { token })).status).to.equal(202);

      const before = await scrapeUntil(app.url, () => true);
      const pendingBefore = before.value('monitoring_notification_outbox_pending')!;
      await app.database.sql.query(
        sql`INSERT INTO notification_outbox (organization_id, recipient_email, subject, body, created_at, delivered_at) VALUES
           (${user.organizationId}, 'a@metrics.example', 's', 'b', now() - interval '1 hour', NULL),
           (${user.organizationId}, 'b@metrics.example', 's', 'b', now(), NULL),
           (${user.organizationId}, 'c@metrics.example', 's', 'b', now() - interval '2 hours', now())`,
      );

      const up = { kind: 'http', location: 'eu-west', status: 'up' };
      const scrape = await scrapeUntil(app.url, (s) => {
        const checks = s.value('monitoring_checks_total', up) ?? 0;
        return (
          checks >= 1 &&
          s.value('monitoring_check_results_total', { outcome: 'recorded' }) === checks &&
          s.labelSets('monitoring_job_runs_total').length > 0
        );
      });

      // HTTP: one series per route template, method and status; never the path as sent.
      const requests = (method: string, route: string, status: string) =>
        scrape.histogram('http_request_duration_seconds', { method, route, status_code: status })?.count;
      expect(requests('GET', '/api/websites/:id', '200')).to.equal(2);
      expect(requests('GET', '/api/websites/:id', '404')).to.equal(1);
      expect(requests('POST', '/api/websites', '201')).to.equal(1);
      expect(requests('POST', '/api/websites/:id/trigger-check', '202')).to.equal(1);
      expect(requests('POST', '/api/auth/sign-up/email', '200')).to.equal(1);
      expect(requests('GET', 'unmatched', '404')).to.equal(1);
      expect(requests('GET', '/metrics', '401')).to.equal(2);
      const routes = scrape.labelSets('http_request_duration_seconds').map((labels) => labels.route!);
      expect(routes.filter((route) => route.includes(publicId) || route.includes('no-such'))).to.deep.equal([]);

      // The engine: the check that ran against the target, its lateness, its recorded result.
      const checks = scrape.value('monitoring_checks_total', up)!;
      expect(target.hits()).to.be.at.least(checks);
      expect(scrape.labelSets('monitoring_checks_total')).to.deep.equal([up]);
      const lateness = scrape.histogram('monitoring_check_start_lateness_seconds', { location: 'eu-west' })!;
      expect(lateness.count).to.equal(checks);
      expect(lateness.buckets['+Inf']).to.equal(checks);
      expect(scrape.value('monitoring_check_results_total', { outcome: 'dropped' })).to.equal(0);
      const history = await call(app.url, 'GET', `/api/websites/${publicId}/check-history`, { token });
      expect((history.body as { items: Array<{ status: string }> }).items.map((item) => item.status)).to.include('up');

      // Jobs: the recurring jobs ran once at start, each counted under its name.
      for (const labels of scrape.labelSets('monitoring_job_runs_total')) {
        expect(labels.outcome).to.equal('succeeded');
        expect(scrape.histogram('monitoring_job_duration_seconds', { job: labels.job! })!.count).to.be.at.least(1);
      }

      // The outbox: undelivered rows only, and the age of the oldest.
      expect(scrape.value('monitoring_notification_outbox_pending')).to.equal(pendingBefore + 2);
      expect(scrape.value('monitoring_notification_outbox_oldest_pending_seconds')).to.be.within(3_600, 3_600 + 600);
      expect(scrape.value('monitoring_notification_deliveries_total', { outcome: 'delivered' })).to.equal(0);
      expect(scrape.value('monitoring_notification_deliveries_total', { outcome: 'failed' })).to.equal(0);

      // Pools: every pool the service opens, each with its connections.
      for (const pool of ['orm', 'sql', 'reads', 'jobs']) {
        const total = scrape.value('monitoring_db_pool_connections', { pool })!;
        expect(total, pool).to.be.a('number').and.at.least(0);
        expect(scrape.value('monitoring_db_pool_idle_connections', { pool })).to.be.at.most(total);
        expect(scrape.value('monitoring_db_pool_waiting_requests', { pool }), pool).to.equal(0);
      }
      expect(scrape.value('monitoring_db_pool_connections', { pool: 'jobs' })).to.be.at.least(1);
      expect(scrape.value('monitoring_db_pool_connections', { pool: 'orm' })).to.be.at.least(1);

      // The runtime: prom-client's defaults, event-loop lag included.
      expect(scrape.value('nodejs_eventloop_lag_seconds')).to.be.at.least(0);
      expect(scrape.family('nodejs_eventloop_lag_p99_seconds').type).to.equal('gauge');
      expect(scrape.value('process_cpu_user_seconds_total')).to.be.greaterThan(0);
    });

    it('answers in the text format with its content type, uncached', async () => {
      const response = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
      expect(response.headers.get('cache-control')).to.equal('no-store');
      await response.text();
    });
  });

  describe('with METRICS_PORT: on a listener of its own', () => {
    let database: FreshDatabase;
    let app: RunningApplication;

    before(async () => {
      database = await aFreshDatabase('metrics_port');
      app = await startApplication(
        { ...testConfig({ METRICS_TOKEN: TOKEN, METRICS_PORT: '0' }), databaseUrl: database.url },
        { logger: silent, jobs: false, checkWorker: false },
      );
    });
    after(async () => {
      await app?.stop();
      await database?.drop();
    });

    it('serves /metrics on loopback behind the token, and the API listener answers 404 for it', async () => {
      expect(app.metricsUrl).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expectError(await call(app.url, 'GET', '/metrics', { token: TOKEN }), 404);
      expectError(await call(app.metricsUrl!, 'GET', '/metrics'), 401, 'unauthorized');
      expectError(await call(app.metricsUrl!, 'GET', '/api/websites', { token: TOKEN }), 404);

      const served = await call(app.metricsUrl!, 'GET', '/metrics', { token: TOKEN });
      expect(served.status).to.equal(200);
      const scrape = await Scrape.of(served.body as string);
      // The API's own request was metered there; the metrics listener's are not.
      expect(scrape.histogram('http_request_duration_seconds', { method: 'GET', route: 'unmatched', status_code: '404' })!.count).to.equal(
        1,
      );
      expect(scrape.labelSets('http_request_duration_seconds')).to.have.length(1);
    });
  });

  describe('with neither', () => {
    it('answers 404 for /metrics and collects nothing', async () => {
      const { url, container } = await testServer();
      const response = await fetch(`${url}/metrics`);
      expect(response.status).to.equal(404);
      expect(container.isBound(METRICS)).to.equal(false);
    });
  });
});
