/**
 * `npm run bench:api`: the CPU one request of a paged list costs the service, against a bare
 * Express route serving the same page from memory. Target: at most 3x.
 *
 * The service runs in its own process (embedded PostgreSQL, or DATABASE_URL) with a bare route
 * beside it; autocannon loads both from this process over loopback. CPU per request is the
 * service process's user+system time (process.cpuUsage) plus, with the embedded server, the
 * PostgreSQL processes' time from /proc, over the measured window.
 *
 * Add a scenario to SCENARIOS to measure another list (e.g. GET /api/websites with 10,000 monitors).
 */
import autocannon from 'autocannon';
import { startBenchService, type BenchService } from './support/service';
import { customerDomainsScenario } from './scenarios/customer-domains.scenario';
import type { ApiScenario } from './scenarios/scenario';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 3);
const TARGET_RATIO = 3;

const SCENARIOS: ApiScenario[] = [customerDomainsScenario];

interface Cpu {
  serverMicros: number;
  postgresMicros: number | null;
}

interface Measurement {
  route: string;
  requestsPerSecond: number;
  serverCpuMicrosPerRequest: number;
  postgresCpuMicrosPerRequest: number | null;
  cpuMicrosPerRequest: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
}

async function measure(service: BenchService, route: string, url: string, headers: Record<string, string>): Promise<Measurement> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_S, headers });
  const before = await service.request<Cpu>({ type: 'cpu' });
  const load = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const after = await service.request<Cpu>({ type: 'cpu' });
  const n = load.requests.total;
  const server = (after.serverMicros - before.serverMicros) / n;
  const postgres = after.postgresMicros === null || before.postgresMicros === null ? null
    : (after.postgresMicros - before.postgresMicros) / n;
  return {
    route, requestsPerSecond: Math.round(load.requests.average),
    serverCpuMicrosPerRequest: Math.round(server),
    postgresCpuMicrosPerRequest: postgres === null ? null : Math.round(postgres),
    cpuMicrosPerRequest: Math.round(server + (postgres ?? 0)),
    latencyP50Ms: load.latency.p50, latencyP99Ms: load.latency.p99, non2xx: load.non2xx,
  };
}

async function main() {
  const service = await startBenchService('api-service-process.ts');
  const bareUrl = (await service.request<{ bareUrl: string }>({ type: 'urls' })).bareUrl;
  const results = [];
  try {
    for (const scenario of SCENARIOS) {
      const target = await scenario.prepare(service);
      const url = `${service.url}${target.path}`;
      const page = await fetch(url, { headers: target.headers }).then(async (r) => {
        if (r.status !== 200) throw new Error(`${scenario.name}: ${r.status} ${await r.text()}`);
        return r.json();
      });
      await service.request({ type: 'bare', body: page });
      const baseline = await measure(service, 'GET /bare (same page from memory)', `${bareUrl}/bare`, {});
      const api = await measure(service, `GET ${target.path}`, url, target.headers);
      const ratio = api.cpuMicrosPerRequest / baseline.cpuMicrosPerRequest;
      results.push({
        scenario: scenario.name, data: target.description, baseline, api,
        ratio: Number(ratio.toFixed(2)),
        serverOnlyRatio: Number((api.serverCpuMicrosPerRequest / baseline.serverCpuMicrosPerRequest).toFixed(2)),
        target: `<= ${TARGET_RATIO}`, ok: ratio <= TARGET_RATIO && api.non2xx === 0 && baseline.non2xx === 0,
      });
    }
  } finally {
    await service.stop();
  }
  console.log(JSON.stringify({ date: new Date().toISOString(), connections: CONNECTIONS, durationSeconds: DURATION_S, results }, null, 2));
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
