/**
 * `npm run bench:api`: the CPU one request of a paged list costs the service, against a bare
 * Express route serving the same page from memory. Target: at most 3x (service process CPU).
 *
 * The service runs in its own process (embedded PostgreSQL, or DATABASE_URL) with a bare route
 * beside it; autocannon loads both from this process over loopback, alternately for a few rounds
 * (the median is reported: the machine is shared). CPU per request is the service process's
 * user+system time (process.cpuUsage); with the embedded server, the PostgreSQL processes' time
 * from /proc is reported beside it, and in the total ratio.
 *
 * BENCH_DURATION / BENCH_WARMUP (seconds per run), BENCH_ROUNDS, BENCH_PROFILE=<dir> (CPU profile
 * of each run). Add a scenario to SCENARIOS to measure another list.
 *
 * A scenario may also ask for latency at a fixed offered load (`latency`): an open-loop run over the
 * same 50 connections, each latency counted from the request's scheduled start. At full load a
 * closed-loop generator only measures its own queue (latency = connections / throughput).
 */
import autocannon from 'autocannon';
import { startBenchService, type BenchService } from './support/service';
import { customerDomainsScenario } from './scenarios/customer-domains.scenario';
import { websitesScenario } from './scenarios/websites.scenario';
import { openLoop } from './support/open-loop';
import type { ApiScenario } from './scenarios/scenario';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PROFILE_DIR = process.env.BENCH_PROFILE;
const TARGET_RATIO = 3;

/** BENCH_SCENARIO=<name prefix> runs only the matching scenarios. */
const SCENARIOS: ApiScenario[] = [customerDomainsScenario, websitesScenario].filter(
  (scenario) => !process.env.BENCH_SCENARIO || scenario.name.startsWith(process.env.BENCH_SCENARIO),
);

interface Cpu {
  serverMicros: number;
  postgresMicros: number | null;
}

interface Measurement {
  requestsPerSecond: number;
  serverCpuMicrosPerRequest: number;
  postgresCpuMicrosPerRequest: number | null;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
}

async function measure(service: BenchService, label: string, url: string, headers: Record<string, string>): Promise<Measurement> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_S, headers });
  if (PROFILE_DIR) await service.request({ type: 'profile' });
  const before = await service.request<Cpu>({ type: 'cpu' });
  const load = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const after = await service.request<Cpu>({ type: 'cpu' });
  if (PROFILE_DIR) await service.request({ type: 'profile', file: `${PROFILE_DIR}/${label.replace(/\W+/g, '_')}.cpuprofile` });
  const n = Math.max(1, load.requests.total);
  return {
    requestsPerSecond: Math.round(load.requests.average),
    serverCpuMicrosPerRequest: (after.serverMicros - before.serverMicros) / n,
    postgresCpuMicrosPerRequest:
      after.postgresMicros === null || before.postgresMicros === null ? null : (after.postgresMicros - before.postgresMicros) / n,
    latencyP50Ms: load.latency.p50,
    latencyP99Ms: load.latency.p99,
    non2xx: load.non2xx,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round1 = (value: number) => Math.round(value * 10) / 10;

/** The median of each figure over the rounds. */
function summarize(route: string, runs: Measurement[]) {
  const pg = runs.map((r) => r.postgresCpuMicrosPerRequest);
  return {
    route,
    requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    serverCpuMicrosPerRequest: Math.round(median(runs.map((r) => r.serverCpuMicrosPerRequest))),
    postgresCpuMicrosPerRequest: pg.includes(null) ? null : Math.round(median(pg as number[])),
    latencyP50Ms: median(runs.map((r) => r.latencyP50Ms)),
    latencyP99Ms: median(runs.map((r) => r.latencyP99Ms)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

async function runScenario(service: BenchService, bareUrl: string, scenario: ApiScenario) {
  const target = await scenario.prepare(service);
  const url = `${service.url}${target.path}`;
  const response = await fetch(url, { headers: target.headers });
  if (response.status !== 200) throw new Error(`${scenario.name}: ${response.status} ${await response.text()}`);
  await service.request({ type: 'bare', body: await response.json() });
  const bare: Measurement[] = [];
  const api: Measurement[] = [];
  const ratios: number[] = [];
  const totalRatios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const b = await measure(service, `bare-${round}`, `${bareUrl}/bare`, {});
    const a = await measure(service, `api-${round}`, url, target.headers);
    bare.push(b);
    api.push(a);
    ratios.push(a.serverCpuMicrosPerRequest / b.serverCpuMicrosPerRequest);
    totalRatios.push((a.serverCpuMicrosPerRequest + (a.postgresCpuMicrosPerRequest ?? 0)) / b.serverCpuMicrosPerRequest);
  }
  const ratio = median(ratios);
  const latency = target.latency ? await atFixedRate(bareUrl, url, target.headers, target.latency) : undefined;
  const failed = [...bare, ...api].some((m) => m.non2xx > 0) || (latency !== undefined && !latency.ok);
  return {
    scenario: scenario.name,
    data: target.description,
    baseline: summarize('GET /bare (the same page from memory)', bare),
    api: summarize(`GET ${target.path}`, api),
    ratio: round1(ratio),
    ratiosPerRound: ratios.map(round1),
    ratioWithPostgres: round1(median(totalRatios)),
    ...(latency ? { latencyAtFixedRate: latency } : {}),
    target: `ratio <= ${TARGET_RATIO}${target.latency ? `, p99 < ${target.latency.p99TargetMs} ms at ${target.latency.rate} requests/s` : ''}`,
    ok: ratio <= TARGET_RATIO && !failed,
  };
}

/** Both routes under the same open-loop load, ROUNDS times (the median p99 is judged: the machine is shared). */
async function atFixedRate(bareUrl: string, url: string, headers: Record<string, string>, latency: { rate: number; p99TargetMs: number }) {
  const options = { connections: CONNECTIONS, rate: latency.rate, durationSeconds: Math.max(DURATION_S, 8) };
  const bare = [];
  const api = [];
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(await openLoop(`${bareUrl}/bare`, {}, options));
    api.push(await openLoop(url, headers, options));
  }
  const complete = api.every(
    (run) => run.requests >= latency.rate * options.durationSeconds * 0.99 && run.non2xx === 0 && run.errors === 0,
  );
  const p99 = median(api.map((run) => run.latencyMs.p99));
  return {
    requestsPerSecond: latency.rate,
    connections: CONNECTIONS,
    secondsPerRound: options.durationSeconds,
    baselineP99MsPerRound: bare.map((run) => run.latencyMs.p99),
    apiP99MsPerRound: api.map((run) => run.latencyMs.p99),
    apiP50Ms: median(api.map((run) => run.latencyMs.p50)),
    apiP99Ms: p99,
    ok: complete && p99 < latency.p99TargetMs,
  };
}

async function main() {
  const service = await startBenchService('api-service-process');
  const { bareUrl } = await service.request<{ bareUrl: string }>({ type: 'urls' });
  const results = [];
  try {
    for (const scenario of SCENARIOS) results.push(await runScenario(service, bareUrl, scenario));
  } finally {
    await service.stop();
  }
  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString(),
        connections: CONNECTIONS,
        durationSeconds: DURATION_S,
        rounds: ROUNDS,
        results,
      },
      null,
      2,
    ),
  );
  if (results.some((r) => !r.ok)) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
