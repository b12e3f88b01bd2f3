/**
 * `npm run bench:small`: the small end. The whole service as `npm start` runs it (API, job system,
 * check worker, notification worker, its embedded PostgreSQL) in a child process, first with no
 * monitors at all (the idle figures), then with BENCH_MONITORS HTTP monitors (default 500) on
 * BENCH_INTERVAL-minute intervals (default 5: 1.7 checks a second) against a loopback target in
 * another process: BENCH_WARMUP seconds of warm-up (default 330, past one interval, so every
 * monitor has its first result), then BENCH_SECONDS measured (default 600; e.g. 120 for a quick
 * run). BENCH_IDLE_WARMUP / BENCH_IDLE_SECONDS (default 60 / 120) for the idle part.
 * Figures: CPU a second of the service and of its PostgreSQL (from /proc: the processes' own user
 * and system time; the service's threads other than its main one beside it), the service's
 * resident set, PostgreSQL's memory (its processes' proportional sets), and all-in CPU per check (service + PostgreSQL over the checks started) against a bare
 * check (a `node:http` GET on a new connection) paced at the same rate in this process, measured
 * before the service starts (BENCH_BARE_SECONDS, default 120).
 * Goals: CPU beyond the checks' own work (all-in CPU a second less the checks' rate times the bare
 * check) <= 1 ms a second; all-in per check <= 2x the paced bare check; service resident set
 * <= 120 MB (measured at the end of the window). Exits non-zero on a miss.
 * The service runs with the small scale's node flags, as `npm start` does by default (SERVICE_SCALE=large:
 * the large end's, to compare); BENCH_GC_DEFAULTS=1 / BENCH_NODE_FLAGS as for bench:engine.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import { startBenchService, type BenchService } from './support/service';
import { loaderFlags, supportScript } from './support/scripts';
import { postgresCpuMicros } from './support/postgres-cpu';
import { threadCpuMicros, tickedMicros } from './support/process-cpu';
import { postgresMemoryBytes, residentBytes } from './support/process-memory';
import { goal, loadAverage, printVerdict } from './support/verdict';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 500);
const INTERVAL_MINUTES = Number(process.env.BENCH_INTERVAL ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 60 * INTERVAL_MINUTES + 30);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 600);
const IDLE_WARMUP_SECONDS = Number(process.env.BENCH_IDLE_WARMUP ?? 60);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 120);
const BARE_SECONDS = Number(process.env.BENCH_BARE_SECONDS ?? 120);
const CHECKS_PER_SECOND = MONITORS / (INTERVAL_MINUTES * 60);
/** The service's garbage-collector settings (src/main/gc-tuning.ts): small, as `npm start` gives them by default. */
const SCALE = process.env.SERVICE_SCALE === 'large' ? 'large' : 'small';

const progress = (message: string) => process.stderr.write(`[bench:small ${new Date().toISOString()}] ${message}\n`);
const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const MB = 1024 * 1024;

/** A bare check's CPU at `perSecond` checks a second, spread evenly (as the engine starts them), in this process. */
async function pacedBareCpuPerCheck(check: () => Promise<void>, perSecond: number, seconds: number): Promise<number> {
  const gapMs = 1000 / perSecond;
  const run = async (count: number) => {
    const before = process.cpuUsage();
    const start = Date.now();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < count; i++) {
      pending.push(check().catch(() => undefined));
      await sleep(Math.max(0, start + (i + 1) * gapMs - Date.now()) / 1000);
    }
    await Promise.all(pending);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / count;
  };
  await run(Math.ceil(perSecond * 10));
  return run(Math.ceil(perSecond * seconds));
}

/**
 * CPU (µs) of the service process, of its threads other than the main one, and of its PostgreSQL
 * so far, from /proc (the service's threads read once; their ticks where the kernel keeps no run time).
 */
async function cpuOf(service: BenchService): Promise<{ service: number; serviceOtherThreads: number; postgres: number }> {
  const threads = await threadCpuMicros(service.pid);
  return {
    service: threads === null ? await tickedMicros(service.pid) : threads.main + threads.others,
    serviceOtherThreads: threads?.others ?? Number.NaN,
    postgres: (await postgresCpuMicros(service.pid)) ?? Number.NaN,
  };
}

/** CPU a second of each over `seconds`, with the checks started meanwhile and the memory at the end. */
async function window(service: BenchService, seconds: number) {
  const stats = () => service.request<{ started: number; heapUsed: number; transactions: number }>({ type: 'stats' });
  const [cpuBefore, statsBefore] = [await cpuOf(service), await stats()];
  await sleep(seconds);
  const [cpuAfter, statsAfter] = [await cpuOf(service), await stats()];
  const checks = statsAfter.started - statsBefore.started;
  const serviceMs = (cpuAfter.service - cpuBefore.service) / 1000 / seconds;
  const postgresMs = (cpuAfter.postgres - cpuBefore.postgres) / 1000 / seconds;
  return {
    seconds,
    checks,
    checksPerSecond: round(checks / seconds, 2),
    serviceCpuMsPerSecond: round(serviceMs, 2),
    // Of which threads other than the main one: at the small scale the collector runs on the main
    // thread (--single-threaded-gc), so this is mostly V8's optimizing compiler (bench/README.md).
    serviceOtherThreadsCpuMsPerSecond: round((cpuAfter.serviceOtherThreads - cpuBefore.serviceOtherThreads) / 1000 / seconds, 2),
    postgresCpuMsPerSecond: round(postgresMs, 2),
    cpuMsPerSecond: round(serviceMs + postgresMs, 2),
    // The service's statements and transactions a minute (less the bench's own read of the count; PostgreSQL's statistics lag by about a second).
    transactionsPerMinute: round(((statsAfter.transactions - statsBefore.transactions - 1) * 60) / seconds, 1),
    serviceRssMb: round(((await residentBytes(service.pid)) ?? Number.NaN) / MB),
    serviceHeapUsedMb: round(statsAfter.heapUsed / MB),
    postgresMemoryMb: round((await postgresMemoryBytes(service.pid)) / MB),
  };
}

async function main() {
  const loadBefore = loadAverage();
  const targets = fork(supportScript('targets-process'), [], { execArgv: [...loaderFlags] });
  const ports = await new Promise<{ http: number }>((resolve) => targets.once('message', resolve as never));
  const url = `http://127.0.0.1:${ports.http}/`;
  const bareCheck = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent: false }, (res) => {
          res.resume();
          res.once('end', resolve);
        })
        .once('error', reject);
    });
  progress(`bare check paced at ${round(CHECKS_PER_SECOND, 2)}/s for ${BARE_SECONDS} s`);
  const bareMicros = await pacedBareCpuPerCheck(bareCheck, CHECKS_PER_SECOND, BARE_SECONDS);
  const service = await startBenchService('small-service-process', { scale: SCALE });
  try {
    progress(`service up (pid ${service.pid}); idle: ${IDLE_WARMUP_SECONDS} s warm-up, ${IDLE_SECONDS} s measured`);
    await sleep(IDLE_WARMUP_SECONDS);
    const idle = await window(service, IDLE_SECONDS);
    progress(`idle: ${JSON.stringify(idle)}`);
    const seeded = await service.request<{ ms: number }>({ type: 'seed', count: MONITORS, url, intervalMinutes: INTERVAL_MINUTES });
    progress(`${MONITORS} monitors seeded in ${seeded.ms} ms; ${WARMUP_SECONDS} s warm-up, then ${SECONDS} s measured`);
    await sleep(WARMUP_SECONDS);
    const loaded = await window(service, SECONDS);
    const allInMicros = loaded.checks > 0 ? (loaded.cpuMsPerSecond * 1000 * SECONDS) / loaded.checks : Number.NaN;
    const beyondChecksMs = loaded.cpuMsPerSecond - (loaded.checksPerSecond * bareMicros) / 1000;
    const figures = {
      scale: SCALE,
      monitors: MONITORS,
      intervalMinutes: INTERVAL_MINUTES,
      bareCheckMicrosPaced: round(bareMicros),
      idle,
      loaded: {
        ...loaded,
        allInMicrosPerCheck: round(allInMicros),
        allInRatioToBare: round(allInMicros / bareMicros, 2),
        cpuMsPerSecondBeyondChecks: round(beyondChecksMs, 2),
      },
    };
    printVerdict(
      figures,
      {
        cpuBeyondChecks: goal(round(beyondChecksMs, 2), '<=', 1, 'ms of CPU a second (service + PostgreSQL)'),
        allInPerCheck: goal(round(allInMicros / bareMicros, 2), '<=', 2, 'x the paced bare check'),
        serviceRss: goal(loaded.serviceRssMb, '<=', 120, 'MB'),
      },
      loadBefore,
    );
  } finally {
    await service.stop();
    targets.kill();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
