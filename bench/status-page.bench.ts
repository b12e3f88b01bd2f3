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
 *
 * BENCH_MONITORS=40000: the same page while the check engine runs that many monitors on loopback
 * (half HTTP, half TCP, 1- and 2-minute intervals: 500 checks/s at 40,000, as bench:engine runs
 * them, in the same process as the page), during an incident told on the page. Per round: a burst
 * of BENCH_BURST views (default 20,000, 50 connections, as fast as they are answered) of the bare
 * route, then of the page, then of the page with If-None-Match (304s); then an open-loop round at
 * BENCH_RATE. Reported: the checks' start lateness p99 during each burst against a quiet window of
 * BENCH_QUIET seconds before (goal <= 1 s), and the views' figures under that load: CPU per view is
 * the service's CPU over the burst less the engine's CPU per second of the quiet window.
 */
import autocannon from 'autocannon';
import { startBenchService, type BenchService } from './support/service';
import { openLoop } from './support/open-loop';
import { aPageOf50, COMPONENTS } from './scenarios/status-page.scenario';
import { engineWindow, startEngineUnderLoad, type EngineUnderLoad } from './support/engine-under-load';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const PROFILE_DIR = process.env.BENCH_PROFILE;
const TARGET_RATIO = 1.5;
const TARGET_P99_MS = 50;
const MONITORS = Number(process.env.BENCH_MONITORS ?? 0);
const BURST = Number(process.env.BENCH_BURST ?? 20_000);
const QUIET_S = Number(process.env.BENCH_QUIET ?? 20);
const TARGET_LATENESS_P99_MS = 1000;

interface Cpu {
  serverMicros: number;
  postgresMicros: number | null;
}
interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}
/** The service's event loop delay since the previous call (ms). */
async function loopDelay(service: BenchService): Promise<LoopDelay> {
  const { p50, p99, max } = await service.request<LoopDelay>({ type: 'loop-delay' });
  return { p50, p99, max };
}

async function measure(service: BenchService, label: string, url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_S, headers });
  if (PROFILE_DIR) await service.request({ type: 'profile' });
  const before = await service.request<Cpu>({ type: 'cpu' });
  const load = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  const after = await service.request<Cpu>({ type: 'cpu' });
  if (PROFILE_DIR) await service.request({ type: 'profile', file: `${PROFILE_DIR}/${label}.cpuprofile` });
  const n = Math.max(1, load.requests.total);
  return {
    requestsPerSecond: Math.round(load.requests.average),
    serverCpuMicrosPerView: (after.serverMicros - before.serverMicros) / n,
    postgresCpuMicrosPerView:
      after.postgresMicros === null || before.postgresMicros === null ? null : (after.postgresMicros - before.postgresMicros) / n,
    non2xx: load.non2xx - load['3xx'] + load.errors,
    notModified: load['3xx'],
    views: load.requests.total,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round2 = (value: number) => Math.round(value * 100) / 100;

/** Response headers the bare route repeats (everything but the per-response and framing ones). */
const PER_RESPONSE = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-request-id']);

async function main() {
  const service = await startBenchService('api-service-process');
  try {
    const { bareUrl } = await service.request<{ bareUrl: string }>({ type: 'urls' });
    const path = (await aPageOf50(service)).path;
    const url = `${service.url}${path}`;
    const response = await fetch(url);
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!PER_RESPONSE.has(name)) headers[name] = value;
    });
    await service.request({ type: 'bare', text, headers });

    const bare: Awaited<ReturnType<typeof measure>>[] = [];
    const page: Awaited<ReturnType<typeof measure>>[] = [];
    // Views of a browser or CDN holding the page: If-None-Match with its ETag, answered 304.
    const conditional: Awaited<ReturnType<typeof measure>>[] = [];
    const etag = response.headers.get('etag') ?? '';
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await measure(service, `bare-${round}`, `${bareUrl}/bare`));
      page.push(await measure(service, `page-${round}`, url));
      conditional.push(await measure(service, `conditional-${round}`, url, { 'if-none-match': etag }));
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
    const failed = [...bare, ...page, ...conditional].some((m) => m.non2xx > 0);
    const result = {
      date: new Date().toISOString(),
      connections: CONNECTIONS,
      durationSeconds: DURATION_S,
      rounds: ROUNDS,
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
        postgresCpuMicrosPerView: page.some((m) => m.postgresCpuMicrosPerView === null)
          ? null
          : round2(median(page.map((m) => m.postgresCpuMicrosPerView!))),
      },
      cpuRatio: round2(ratio),
      cpuRatiosPerRound: ratios.map(round2),
      notModified: {
        route: `GET ${path} with If-None-Match (304)`,
        share: round2(
          conditional.reduce((n, m) => n + m.notModified, 0) /
            Math.max(
              1,
              conditional.reduce((n, m) => n + m.views, 0),
            ),
        ),
        serverCpuMicrosPerView: Math.round(median(conditional.map((m) => m.serverCpuMicrosPerView))),
        cpuRatioToBare: round2(median(conditional.map((m, i) => m.serverCpuMicrosPerView / bare[i]!.serverCpuMicrosPerView))),
      },
      throughputRatio: round2(median(rpsRatios)),
      openLoop: {
        viewsPerSecond: RATE,
        secondsPerRound: options.durationSeconds,
        baselineP99MsPerRound: bareOpen.map((run) => run.latencyMs.p99),
        pageP99MsPerRound: pageOpen.map((run) => run.latencyMs.p99),
        pageP50Ms: median(pageOpen.map((run) => run.latencyMs.p50)),
        pageP99Ms: p99,
        complete,
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

const progress = (message: string) => process.stderr.write(`[bench:status-page ${new Date().toISOString()}] ${message}\n`);

/** A burst of BURST views (50 connections, closed loop): the service's CPU over it and the checks started meanwhile. */
async function burstOf(engine: EngineUnderLoad, url: string, headers: Record<string, string>, engineMicrosPerSecond: number) {
  const { service } = engine;
  const statsBefore = await engine.stats();
  const before = await service.request<Cpu>({ type: 'cpu' });
  const started = performance.now();
  const load = await autocannon({ url, connections: CONNECTIONS, amount: BURST, headers });
  const seconds = (performance.now() - started) / 1000;
  const after = await service.request<Cpu>({ type: 'cpu' });
  // Checks due during the burst but started late are counted when they start: a second more.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const checks = engineWindow(statsBefore, await engine.stats());
  const n = Math.max(1, load.requests.total);
  const serverMicros = after.serverMicros - before.serverMicros;
  return {
    views: load.requests.total,
    seconds: round2(seconds),
    viewsPerSecond: Math.round(load.requests.total / seconds),
    statuses: { '2xx': load['2xx'], '3xx': load['3xx'], other: load.non2xx - load['3xx'] + load.errors },
    latencyMs: { p50: load.latency.p50, p99: load.latency.p99 },
    serverCpuMicrosPerView: Math.round(serverMicros / n),
    // What the views added to the engine's own CPU in the same time.
    viewCpuMicrosPerView: Math.round((serverMicros - engineMicrosPerSecond * seconds) / n),
    postgresCpuMicrosPerView:
      after.postgresMicros === null || before.postgresMicros === null ? null : round2((after.postgresMicros - before.postgresMicros) / n),
    checks,
  };
}

async function mainUnderEngine() {
  const engine = await startEngineUnderLoad(MONITORS, [1, 2], progress);
  const { service } = engine;
  try {
    const { bareUrl } = await service.request<{ bareUrl: string }>({ type: 'urls' });
    const path = (await aPageOf50(service, { location: 'bench', url: engine.targets.http })).path;
    const url = `${service.url}${path}`;
    const response = await fetch(url);
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!PER_RESPONSE.has(name)) headers[name] = value;
    });
    await service.request({ type: 'bare', text, headers });
    // One warm-up burst of each (JIT), outside the figures.
    await autocannon({ url: `${bareUrl}/bare`, connections: CONNECTIONS, amount: 2000 });
    await autocannon({ url, connections: CONNECTIONS, amount: 2000 });

    progress(`quiet window: ${QUIET_S} s of the engine alone`);
    const quietStats = await engine.stats();
    const quietCpu = await service.request<Cpu>({ type: 'cpu' });
    await service.request({ type: 'loop-delay' });
    await new Promise((resolve) => setTimeout(resolve, QUIET_S * 1000));
    const quietAfter = await engine.stats();
    const quietCpuAfter = await service.request<Cpu>({ type: 'cpu' });
    const quiet = { ...engineWindow(quietStats, quietAfter), eventLoopDelayMs: await loopDelay(service) };
    const engineMicrosPerSecond = (quietCpuAfter.serverMicros - quietCpu.serverMicros) / QUIET_S;

    const rounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      progress(
        `round ${round + 1} of ${ROUNDS}: bursts of ${BURST} views (bare, page, page with If-None-Match), then ${RATE} views/s open-loop`,
      );
      const bare = await burstOf(engine, `${bareUrl}/bare`, {}, engineMicrosPerSecond);
      // The page may have been rebuilt since (a result changed it): ask for the current ETag.
      const page = await burstOf(engine, url, {}, engineMicrosPerSecond);
      const etag = (await fetch(url)).headers.get('etag') ?? '';
      const conditional = await burstOf(engine, url, { 'if-none-match': etag }, engineMicrosPerSecond);
      const before = await engine.stats();
      await service.request({ type: 'loop-delay' });
      const open = await openLoop(url, {}, { connections: CONNECTIONS, rate: RATE, durationSeconds: Math.max(DURATION_S, 8) });
      const eventLoopDelayMs = await loopDelay(service);
      const openChecks = engineWindow(before, await engine.stats());
      rounds.push({ bare, page, conditional, open: { ...open, checks: openChecks, eventLoopDelayMs } });
    }
    const pageP99 = median(rounds.map((r) => r.page.checks.latenessMs.p99));
    const worstBurstP99 = Math.max(...rounds.map((r) => r.page.checks.latenessMs.p99));
    const ratio = median(rounds.map((r) => r.page.viewCpuMicrosPerView / r.bare.viewCpuMicrosPerView));
    const ratio304 = median(rounds.map((r) => r.conditional.viewCpuMicrosPerView / r.bare.viewCpuMicrosPerView));
    const openP99 = median(rounds.map((r) => r.open.latencyMs.p99));
    // A conditional view answers 200 once the page changed (a component's state): not a failure, but counted.
    const failed = rounds.some(
      (r) =>
        r.bare.statuses.other > 0 ||
        r.page.statuses.other > 0 ||
        r.conditional.statuses.other > 0 ||
        r.open.non2xx > 0 ||
        r.open.errors > 0,
    );
    const result = {
      date: new Date().toISOString(),
      monitors: MONITORS,
      checksPerSecond: Math.round(engine.checksPerSecond),
      burstViews: BURST,
      page: { path, components: COMPONENTS, bytes: Buffer.byteLength(text), incident: 'one open, 5 components affected' },
      quiet: { seconds: QUIET_S, engineServiceCpuMillisPerSecond: round2(engineMicrosPerSecond / 1000), checks: quiet },
      checkStartLatenessP99Ms: { quiet: quiet.latenessMs.p99, duringPageBursts: pageP99, worstPageBurst: worstBurstP99 },
      viewCpuRatioToBare: round2(ratio),
      notModifiedCpuRatioToBare: round2(ratio304),
      notModifiedShare: round2(
        rounds.reduce((n, r) => n + r.conditional.statuses['3xx'], 0) / rounds.reduce((n, r) => n + r.conditional.views, 0),
      ),
      openLoopP99Ms: openP99,
      // The service's event loop delay: how long a ready view waited behind checks, recording, collection.
      eventLoopDelayP99Ms: { quiet: quiet.eventLoopDelayMs.p99, openLoop: median(rounds.map((r) => r.open.eventLoopDelayMs.p99)) },
      rounds,
      target: `check start lateness p99 <= ${TARGET_LATENESS_P99_MS} ms during a burst of ${BURST} views; views: CPU ratio <= ${TARGET_RATIO}, p99 <= ${TARGET_P99_MS} ms at ${RATE} views/s`,
      ok: worstBurstP99 <= TARGET_LATENESS_P99_MS && !failed,
    };
    console.log(JSON.stringify(result, null, 2));
    if (!result.ok) process.exitCode = 1;
  } finally {
    await engine.stop();
  }
}

(MONITORS > 0 ? mainUnderEngine() : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
