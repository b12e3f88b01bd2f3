/**
 * `npm run bench:status-page`: what one view of a public status page (50 components) costs the
 * service, against a bare Express route sending the same bytes, with the same headers, from memory
 * in the same process and run. Targets: CPU per view (service process) at most 1.5x the bare
 * route's, and p99 at most 50 ms at 1,000 views/s offered open-loop.
 *
 * The service runs in its own process (bench/support/api-service-process.ts, embedded PostgreSQL);
 * autocannon loads the page and the bare route alternately, BENCH_ROUNDS times (median reported: the
 * machine is shared). The open-loop rounds start each view on a fixed schedule and count its latency
 * from that scheduled start (bench/support/open-loop.ts), over 50 keep-alive connections.
 *
 * BENCH_DURATION / BENCH_WARMUP (seconds per closed-loop run), BENCH_ROUNDS, BENCH_RATE (views/s of
 * the open-loop rounds, default 1000), BENCH_PROFILE=<dir> (CPU profile of each run).
 */
import autocannon from 'autocannon';
import { startBenchService, type BenchService } from './support/service';
import { openLoop } from './support/open-loop';
import { anOrganizationWithToken, call } from './scenarios/scenario';

const CONNECTIONS = 50;
const COMPONENTS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const PROFILE_DIR = process.env.BENCH_PROFILE;
const TARGET_RATIO = 1.5;
const TARGET_P99_MS = 50;

interface Cpu { serverMicros: number; postgresMicros: number | null }

async function measure(service: BenchService, label: string, url: string) {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_S });
  if (PROFILE_DIR) await service.request({ type: 'profile' });
  const before = await service.request<Cpu>({ type: 'cpu' });
  const load = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  const after = await service.request<Cpu>({ type: 'cpu' });
  if (PROFILE_DIR) await service.request({ type: 'profile', file: `${PROFILE_DIR}/${label}.cpuprofile` });
  const n = Math.max(1, load.requests.total);
  return {
    requestsPerSecond: Math.round(load.requests.average),
    serverCpuMicrosPerView: (after.serverMicros - before.serverMicros) / n,
    postgresCpuMicrosPerView: after.postgresMicros === null || before.postgresMicros === null ? null
      : (after.postgresMicros - before.postgresMicros) / n,
    non2xx: load.non2xx + load.errors,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round2 = (value: number) => Math.round(value * 100) / 100;

/** An organization's public page of 50 website monitors of one customer in 5 groups (monitors in SQL: the page, not the setup, is measured). */
async function aPageOf50(service: BenchService): Promise<string> {
  const org = await anOrganizationWithToken(service, 'status-page');
  const pkg = await call<{ id: number }>(service, 'POST', '/api/package-configs', {
    key: 'bench', displayName: 'Bench', minCheckIntervalMinutes: 1, quotaTiers: [{ monitorLimit: 1000, priceMonthly: 0 }],
  }, org.token);
  const { customer } = await call<{ customer: { id: number } }>(service, 'POST', '/api/customers', {
    name: 'Customer', email: 'customer@bench.example', packageId: pkg.id,
  }, org.token);
  const sql = (text: string, params: unknown[] = []) => service.request<{ rows: Array<Record<string, any>> }>({ type: 'sql', sql: text, params });
  const { rows } = await sql(
    `INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, status, management_type,
       check_interval, timeout_seconds, locations, url, config, created_at, updated_at)
     SELECT gen_random_uuid(), ?, ?, 'website', 'http', 'Service ' || g, 'active', 'managed', 1, 30, ARRAY['eu-central'],
       'https://service-' || g || '.example.com/health', '{}'::jsonb, now(), now()
     FROM generate_series(1, ?) g RETURNING public_id`,
    [org.organizationId, customer.id, COMPONENTS],
  );
  await service.request({ type: 'renderDocuments' });
  const ids = rows.map((row) => String(row.public_id));
  const groups = Array.from({ length: 5 }, (_, g) => ({
    name: `Group ${g + 1}`, components: ids.slice(g * 10, g * 10 + 10).map((id) => ({ type: 'monitor', id })),
  }));
  await call(service, 'POST', '/api/status-pages', {
    title: 'Bench status', slug: 'bench', description: 'Fifty components', groups, showResponseTimes: true, footer: 'Bench footer',
  }, org.token);
  return '/status/bench';
}

/** Response headers the bare route repeats (everything but the per-response and framing ones). */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-request-id']);

async function main() {
  const service = await startBenchService('api-service-process');
  try {
    const { bareUrl } = await service.request<{ bareUrl: string }>({ type: 'urls' });
    const path = await aPageOf50(service);
    const url = `${service.url}${path}`;
    const response = await fetch(url);
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => { if (!PER_RESPONSE.has(name)) headers[name] = value; });
    await service.request({ type: 'bare', text, headers });

    const bare: Awaited<ReturnType<typeof measure>>[] = [];
    const page: Awaited<ReturnType<typeof measure>>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await measure(service, `bare-${round}`, `${bareUrl}/bare`));
      page.push(await measure(service, `page-${round}`, url));
    }
    const ratios = page.map((p, i) => p.serverCpuMicrosPerView / bare[i]!.serverCpuMicrosPerView);
    const rpsRatios = page.map((p, i) => bare[i]!.requestsPerSecond / p.requestsPerSecond);

    const options = { connections: CONNECTIONS, rate: RATE, durationSeconds: Math.max(DURATION_S, 8) };
    const bareOpen = [];
    const pageOpen = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareOpen.push(await openLoop(`${bareUrl}/bare`, {}, options));
      pageOpen.push(await openLoop(url, {}, options));
    }
    const complete = pageOpen.every((run) => run.requests >= RATE * options.durationSeconds * 0.99 && run.non2xx === 0 && run.errors === 0);
    const p99 = median(pageOpen.map((run) => run.latencyMs.p99));
    const ratio = median(ratios);
    const failed = [...bare, ...page].some((m) => m.non2xx > 0);
    const result = {
      date: new Date().toISOString(), connections: CONNECTIONS, durationSeconds: DURATION_S, rounds: ROUNDS,
      page: { path, components: COMPONENTS, bytes: Buffer.byteLength(text) },
      baseline: {
        route: 'GET /bare (the same bytes and headers from memory)',
        requestsPerSecond: median(bare.map((m) => m.requestsPerSecond)),
        serverCpuMicrosPerView: Math.round(median(bare.map((m) => m.serverCpuMicrosPerView))),
      },
      statusPage: {
        route: `GET ${path}`,
        requestsPerSecond: median(page.map((m) => m.requestsPerSecond)),
        serverCpuMicrosPerView: Math.round(median(page.map((m) => m.serverCpuMicrosPerView))),
        postgresCpuMicrosPerView: page.some((m) => m.postgresCpuMicrosPerView === null) ? null
          : round2(median(page.map((m) => m.postgresCpuMicrosPerView!))),
      },
      cpuRatio: round2(ratio), cpuRatiosPerRound: ratios.map(round2),
      throughputRatio: round2(median(rpsRatios)),
      openLoop: {
        viewsPerSecond: RATE, secondsPerRound: options.durationSeconds,
        baselineP99MsPerRound: bareOpen.map((run) => run.latencyMs.p99), pageP99MsPerRound: pageOpen.map((run) => run.latencyMs.p99),
        pageP50Ms: median(pageOpen.map((run) => run.latencyMs.p50)), pageP99Ms: p99, complete,
      },
      target: `CPU ratio <= ${TARGET_RATIO}, p99 <= ${TARGET_P99_MS} ms at ${RATE} views/s`,
      ok: ratio <= TARGET_RATIO && complete && p99 <= TARGET_P99_MS && !failed,
    };
    console.log(JSON.stringify(result, null, 2));
    if (!result.ok) process.exitCode = 1;
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
