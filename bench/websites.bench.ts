/**
 * `npm run bench:api`: GET /api/websites (a 50-item page, page 100, of an organization with 10,000
 * monitors, wsm_ bearer token) against a bare Express route serving the same page from memory,
 * both in this run, on loopback, 50 connections.
 *   CPU: each route at full load; CPU per request of the service process (and, reported beside
 *        it, of the embedded PostgreSQL). Target: the websites route at most 3x the baseline.
 *   Latency: 50 keep-alive connections at a fixed offered rate (BENCH_RATE, default 200
 *        requests/s, evenly spaced, latency from each request's scheduled start): p99 under
 *        25 ms. At full load a closed-loop generator only measures its own queue (latency =
 *        connections / throughput), which says nothing about the route.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { startBenchService, type BenchService } from './support/service';
import { seedOrganization } from './support/websites-seed';
import { openLoop } from './support/open-loop';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const MONITORS = 10_000;
const PAGE = Number(process.env.BENCH_PAGE ?? 100);

const latency = (result: autocannon.Result) => ({ p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max });

async function atFullLoad(service: BenchService, url: string, headers: Record<string, string>) {
  await autocannon({ url, connections: CONNECTIONS, duration: 2, headers });
  const pgBefore = (await service.request<{ cpuMicros: number | null }>({ type: 'pgcpu' })).cpuMicros;
  const before = await service.cpuMicros();
  const load = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const cpu = (await service.cpuMicros()) - before;
  const pgAfter = (await service.request<{ cpuMicros: number | null }>({ type: 'pgcpu' })).cpuMicros;
  const requests = load.requests.total;
  return {
    requestsPerSecond: Math.round(load.requests.average), requests, non2xx: load.non2xx, errors: load.errors,
    cpuMicrosPerRequest: Math.round(cpu / requests),
    postgresCpuMicrosPerRequest: pgBefore === null || pgAfter === null ? null : Math.round((pgAfter - pgBefore) / requests),
    latencyAtFullLoadMs: latency(load),
  };
}

const atFixedRate = (url: string, headers: Record<string, string>) =>
  openLoop(url, headers, { connections: CONNECTIONS, rate: RATE, durationSeconds: DURATION_S });

async function main() {
  const service = await startBenchService('websites-service-process.ts');
  try {
    const { token } = await seedOrganization(service, MONITORS);
    const headers = { authorization: `Bearer ${token}` };
    const url = `${service.url}/api/websites?page=${PAGE}&perPage=50`;
    const page = await (await fetch(url, { headers })).json() as { items: unknown[]; total: number };
    if (page.items.length !== 50 || page.total !== MONITORS) throw new Error(`unexpected page: ${page.items.length} items of ${page.total}`);
    const { url: bareUrl } = await service.request<{ url: string }>({ type: 'baseline', body: page });

    const baseline = await atFullLoad(service, bareUrl, {});
    const websites = await atFullLoad(service, url, headers);
    const baselineAtRate = await atFixedRate(bareUrl, {});
    const websitesAtRate = await atFixedRate(url, headers);
    const ratio = websites.cpuMicrosPerRequest / baseline.cpuMicrosPerRequest;
    const withPostgres = websites.postgresCpuMicrosPerRequest === null ? null
      : (websites.cpuMicrosPerRequest + websites.postgresCpuMicrosPerRequest) / (baseline.cpuMicrosPerRequest + Math.max(0, baseline.postgresCpuMicrosPerRequest ?? 0));
    const failures = websites.non2xx + websites.errors + websitesAtRate.non2xx + websitesAtRate.errors;
    if (websitesAtRate.requests < RATE * DURATION_S * 0.99) throw new Error('the load generator fell behind its schedule');
    const ok = ratio <= 3 && websitesAtRate.latencyMs.p99 < 25 && failures === 0;
    console.log(JSON.stringify({
      date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
      connections: CONNECTIONS, durationSeconds: DURATION_S, monitors: MONITORS, pageBytes: JSON.stringify(page).length,
      baseline: { route: 'bare Express GET serving the same 50-item page from memory', ...baseline, atFixedRate: baselineAtRate },
      websites: { route: `GET /api/websites?page=${PAGE}&perPage=50 (wsm_ token)`, ...websites, atFixedRate: websitesAtRate },
      fixedRate: RATE,
      cpuRatio: Number(ratio.toFixed(2)),
      cpuRatioIncludingPostgres: withPostgres === null ? null : Number(withPostgres.toFixed(2)),
      targets: { cpuRatio: '<= 3', p99MsAtFixedRate: '< 25' }, ok,
    }, null, 2));
    if (!ok) process.exitCode = 1;
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
