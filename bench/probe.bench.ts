/**
 * `npm run bench:probe`: one probe (src/main/probe.ts, the real process) holding BENCH_MONITORS
 * monitors (default 40,000, half HTTP, half TCP, on loopback targets) every BENCH_INTERVAL_SECONDS
 * (default 80: 500 checks/s), against the in-process engine checking the same monitors at the same
 * rate in the same run. Phases:
 *   1. engine: the service's own worker checks them at location `bench`; after BENCH_WARMUP seconds
 *      (default two intervals + 15: every monitor's first result, which creates its alert state,
 *      and its second, which the steady memo remembers, are behind), BENCH_SECONDS (default 60)
 *      measured: the service's CPU per recorded check.
 *   2. probe: a private location of the monitors' organization and a key for it (the service's use
 *      cases), the monitors moved there (UPDATE monitors SET locations), so the in-process worker
 *      holds nothing; one probe reports through a TCP proxy in this process. After the same warm-up,
 *      BENCH_SECONDS measured: the probe process's CPU per check it ran (ratioProbeToEngineCpu), the
 *      service's CPU per stored result (serverMicrosPerResultGross) and PostgreSQL's, and the lag of
 *      every stored result, the time the server stored it less its checkedAt (lagMs). Then every
 *      interval is made BENCH_LOW_FACTOR times longer (default 2: 250 results/s), and after
 *      BENCH_LOW_SETTLE seconds (default two of the new intervals + 15) BENCH_SECONDS are measured
 *      again: the service's marginal CPU per result (serverMicrosPerResult, the goal) is the
 *      difference of its CPU a second between the two levels over the difference of results stored
 *      a second (`loadLevels`); the interval is restored before the cut.
 *   3. replay: the proxy cut (connections dropped, new ones refused) for BENCH_DISCONNECT_SECONDS
 *      (default 600); while it is cut, the service's CPU per second with no probe reaching it (its
 *      jobs, its idle worker: serverIdle; serverMicrosPerResultAboveIdle, the figure of earlier runs,
 *      is taken above it) is measured; just before it is restored, the probe's buffered results beyond the sequence
 *      the server stored (read from its data directory) are what it checked meanwhile; after the
 *      replay drains, each is looked up in check_results (lost: not found) and every (monitor,
 *      location, checked_at) of the location stored twice is counted (duplicates).
 * BENCH_PROFILE=file.cpuprofile writes a CPU profile of the service over the probe's measured window.
 * The probe runs as `npm run probe` runs it (compiled, --max-semi-space-size=64; BENCH_PROBE_NODE_FLAGS
 * replaces the flags), LOG_LEVEL warn (BENCH_PROBE_LOG_LEVEL).
 * Progress on stderr, figures on stdout as JSON.
 */
import { spawn, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startBenchService, type BenchService } from './support/service';
import { loaderFlags, supportScript } from './support/scripts';
import { postgresCpuMicros } from './support/postgres-cpu';
import { processCpuMicros } from './support/process-cpu';
import { cutProxy } from './support/cut-proxy';
import { sql, type Sql } from '../src/infrastructure/persistence/sql';
import { toWire } from './support/wire-sql';
import type { WireResult } from '../src/application/probes/wire';
import { goal, loadAverage, printVerdict, type Goal } from './support/verdict';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 40_000);
const INTERVAL_SECONDS = Number(process.env.BENCH_INTERVAL_SECONDS ?? 80);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
// Two intervals: a monitor's first result at a location is judged by the rules, its second is read
// and remembered as steady (SteadyMemo), and from its third on it is stored without a read: the
// steady state a worker or a probe holding its monitors for hours is in.
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 2 * INTERVAL_SECONDS + 15);
const DISCONNECT_SECONDS = Number(process.env.BENCH_DISCONNECT_SECONDS ?? 600);
const LOCATION = 'bench-probe';
/** The lower load level: every interval BENCH_LOW_FACTOR times longer (default 2: half the results), settled BENCH_LOW_SETTLE seconds. */
const LOW_FACTOR = Number(process.env.BENCH_LOW_FACTOR ?? 2);
const LOW_SETTLE_SECONDS = Number(process.env.BENCH_LOW_SETTLE ?? 2 * LOW_FACTOR * INTERVAL_SECONDS + 15);
/** BENCH_PROFILE=file.cpuprofile: a CPU profile of the service over the probe's measured window. */
const PROFILE = process.env.BENCH_PROFILE;
/** As `npm run probe` starts it (package.json); BENCH_PROBE_NODE_FLAGS instead, e.g. the service's flags for checks. */
const PROBE_NODE_FLAGS = (process.env.BENCH_PROBE_NODE_FLAGS ?? '--max-semi-space-size=64').split(' ').filter(Boolean);

const progress = (message: string) => process.stderr.write(`[bench:probe ${new Date().toISOString()}] ${message}\n`);
const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

interface Stats {
  cpuMicros: number;
  started: number;
  recorded: number;
  unrecorded: number;
}
interface ProbeWindow {
  stored: number;
  batches: number;
  steadyBatches: number;
  lagMs: { p50: number | null; p99: number | null; max: number | null; count: number };
}

async function main() {
  const loadBefore = loadAverage();
  const targets = fork(supportScript('targets-process'), [], { execArgv: [...loaderFlags] });
  const ports = await new Promise<{ http: number; tcp: number }>((resolve) => targets.once('message', resolve as never));
  const service = await startBenchService('engine-process');
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-probe-bench-'));
  let probe: ChildProcess | undefined;
  const proxy = await cutProxy(new URL(service.url));
  try {
    const db = {
      query: async <T>(statement: Sql) => (await service.request<{ rows: T[] }>({ type: 'sql', statement: toWire(statement) })).rows,
    };
    const stats = () => service.request<Stats>({ type: 'stats' });
    // PostgreSQL's committed and rolled-back transactions so far (every statement outside one is one).
    const transactions = async () =>
      Number((await db.query<{ n: string }>(sql`SELECT sum(xact_commit + xact_rollback) AS n FROM pg_stat_database`))[0]!.n);
    const http = Math.ceil(MONITORS / 2);
    progress(`service pid ${service.pid}; seeding ${MONITORS} monitors every ${INTERVAL_SECONDS} s`);
    await service.request({
      type: 'seed',
      http,
      tcp: MONITORS - http,
      httpUrl: `http://127.0.0.1:${ports.http}/`,
      tcpPort: ports.tcp,
      intervals: [1],
      // Inserted on it: changing the interval of held monitors afterwards replans every row under the
      // worker (the first full run did, and its engine then recorded 16.7 checks/s of 500).
      intervalSeconds: INTERVAL_SECONDS,
      storm: 0,
    });

    // 1. The in-process engine.
    progress(`engine: ${WARMUP_SECONDS} s of warm-up, then ${SECONDS} s measured`);
    await sleep(WARMUP_SECONDS);
    while ((await stats()).unrecorded > (2 * MONITORS) / INTERVAL_SECONDS) await sleep(1);
    const e0 = await stats();
    const ePg0 = await postgresCpuMicros(service.pid);
    await sleep(SECONDS);
    const e1 = await stats();
    const ePg1 = await postgresCpuMicros(service.pid);
    // Per check recorded; `started` beside it tells whether recording kept up with the checks.
    const engineChecks = e1.recorded - e0.recorded;
    const engineStarted = e1.started - e0.started;
    const engineMicros = (e1.cpuMicros - e0.cpuMicros) / engineChecks;
    const enginePgMicros = ePg0 === null || ePg1 === null ? null : (ePg1 - ePg0) / engineChecks;

    // 2. The probe.
    const { secret } = await service.request<{ secret: string }>({ type: 'probe-location', code: LOCATION });
    await db.query(sql`UPDATE monitors SET locations = ${[LOCATION]}`);
    probe = spawn(process.execPath, [...PROBE_NODE_FLAGS, path.join(__dirname, '../src/main/probe.js')], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        PROBE_SERVER_URL: proxy.url,
        PROBE_KEY: secret,
        PROBE_NAME: 'bench',
        DATA_DIR: dataDir,
        CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
        LOG_LEVEL: process.env.BENCH_PROBE_LOG_LEVEL ?? 'warn',
      },
    });
    const probePid = probe.pid!;
    progress(`probe pid ${probePid} at ${LOCATION}; ${WARMUP_SECONDS} s of warm-up, then ${SECONDS} s measured`);
    await sleep(WARMUP_SECONDS);
    const [location] = await db.query<{ id: number }>(sql`SELECT id FROM check_locations WHERE code = ${LOCATION}`);
    const idle = await stats();
    await service.request<ProbeWindow>({ type: 'probe-window' });
    const results = path.join(dataDir, 'results');
    // The probe numbers its results (one per check); the server's stored sequence follows it within the lag.
    const storedSeq = async () =>
      Number((await db.query<{ seq: string }>(sql`SELECT coalesce(max(last_seq), 0) AS seq FROM probes`))[0]!.seq);
    const p0 = {
      probe: await processCpuMicros(probePid),
      seq: await storedSeq(),
      server: (await stats()).cpuMicros,
      pg: await postgresCpuMicros(service.pid),
      xacts: await transactions(),
    };
    if (PROFILE) await service.request({ type: 'profile-start' });
    await sleep(SECONDS);
    if (PROFILE) await service.request({ type: 'profile-stop', file: path.resolve(PROFILE) });
    const window = await service.request<ProbeWindow>({ type: 'probe-window' });
    const p1 = {
      probe: await processCpuMicros(probePid),
      seq: await storedSeq(),
      server: (await stats()).cpuMicros,
      pg: await postgresCpuMicros(service.pid),
      xacts: await transactions(),
    };
    // The probe's checks: the sequence numbers it gave out over the window (one per result), as the server stored them.
    const probeChecks = p1.seq - p0.seq;
    const after = await stats();
    const probeMicros = (p1.probe - p0.probe) / probeChecks;
    const serverMicros = (p1.server - p0.server) / window.stored;
    const pgMicros = p0.pg === null || p1.pg === null ? null : (p1.pg - p0.pg) / window.stored;

    // 2b. The lower load level, same run: every monitor's interval doubled (half the results a
    // second; the rows stay the probe's and the change reaches it through the schedule's change
    // log), then after LOW_SETTLE_SECONDS (two of the new intervals and 15 s, as the warm-up) the
    // same window again. The marginal CPU per result is the difference of the service's CPU a
    // second over the difference of results stored a second. (Pausing half the monitors does not
    // lower the load: a probe keeps checking a monitor whose row left its location, see the report
    // of issue 51.)
    progress(`lower load: every interval ${LOW_FACTOR}x; ${LOW_SETTLE_SECONDS} s to settle, then ${SECONDS} s measured`);
    await db.query(sql`UPDATE monitors SET check_interval_seconds = ${INTERVAL_SECONDS * LOW_FACTOR}`);
    await sleep(LOW_SETTLE_SECONDS);
    await service.request<ProbeWindow>({ type: 'probe-window' });
    const q0 = { server: (await stats()).cpuMicros, pg: await postgresCpuMicros(service.pid) };
    await sleep(SECONDS);
    const lowWindow = await service.request<ProbeWindow>({ type: 'probe-window' });
    const q1 = { server: (await stats()).cpuMicros, pg: await postgresCpuMicros(service.pid) };
    const levels = [
      { resultsPerSecond: window.stored / SECONDS, serviceMicrosPerSecond: (p1.server - p0.server) / SECONDS },
      { resultsPerSecond: lowWindow.stored / SECONDS, serviceMicrosPerSecond: (q1.server - q0.server) / SECONDS },
    ];
    const marginalMicros =
      (levels[0]!.serviceMicrosPerSecond - levels[1]!.serviceMicrosPerSecond) / (levels[0]!.resultsPerSecond - levels[1]!.resultsPerSecond);
    const pgMarginal =
      p0.pg === null || p1.pg === null || q0.pg === null || q1.pg === null
        ? null
        : ((p1.pg - p0.pg) / SECONDS - (q1.pg - q0.pg) / SECONDS) / (levels[0]!.resultsPerSecond - levels[1]!.resultsPerSecond);
    // Back to the full rate for the cut.
    await db.query(sql`UPDATE monitors SET check_interval_seconds = ${INTERVAL_SECONDS}`);
    await sleep(Math.min(LOW_SETTLE_SECONDS, INTERVAL_SECONDS + 15));

    // 3. Cut, then replay.
    progress(`cutting the probe off for ${DISCONNECT_SECONDS} s`);
    const cutAt = Date.now();
    proxy.cut();
    // The bare baseline: the same service with no probe reaching it (its jobs, its idle worker), after
    // the last batch in flight settled; what a result costs is measured above it.
    const settle = Math.min(5, DISCONNECT_SECONDS / 4);
    const idleSeconds = Math.max(1, Math.min(30, DISCONNECT_SECONDS - settle - 2));
    await sleep(settle);
    const i0 = { server: (await stats()).cpuMicros, xacts: await transactions() };
    await sleep(idleSeconds);
    const i1 = { server: (await stats()).cpuMicros, xacts: await transactions() };
    const idleMicrosPerSecond = (i1.server - i0.server) / idleSeconds;
    await sleep(Math.max(0, DISCONNECT_SECONDS - settle - idleSeconds));
    const [stream] = await db.query<{ instance_id: string; last_seq: string }>(
      sql`SELECT instance_id, last_seq FROM probes ORDER BY last_seen_at DESC LIMIT 1`,
    );
    const held = await bufferedBeyond(results, Number(stream!.last_seq));
    const reconnectAt = Date.now();
    proxy.restore();
    progress(`reconnected: ${held.length} results buffered beyond sequence ${stream!.last_seq}; waiting for the replay`);
    const replayStarted = Date.now();
    let stored = 0;
    for (;;) {
      await sleep(2);
      const [row] = await db.query<{ last_seq: string }>(sql`SELECT last_seq FROM probes WHERE instance_id = ${stream!.instance_id}::uuid`);
      if (Number(row!.last_seq) >= held.at(-1)!.seq) break;
      if (Date.now() - replayStarted > 30 * 60_000) throw new Error('the replay did not finish in 30 minutes');
    }
    const replaySeconds = (Date.now() - replayStarted) / 1000;
    const checkedDuringCut = held.filter((r) => r.checkedAt >= cutAt && r.checkedAt < reconnectAt).length;
    let lost = 0;
    for (let i = 0; i < held.length; i += 20_000) {
      const part = held.slice(i, i + 20_000);
      const [row] = await db.query<{ missing: number; found: number }>(sql`SELECT count(*) FILTER (WHERE NOT EXISTS (
           SELECT 1 FROM check_results r WHERE r.monitor_id = x.m AND r.location_id = ${location!.id}
             AND r.checked_at = 'epoch'::timestamptz + x.t * interval '1 millisecond'))::int AS missing
         FROM unnest(${part.map((r) => r.monitorId)}::bigint[], ${part.map((r) => r.checkedAt)}::bigint[]) AS x(m, t)`);
      lost += row!.missing;
    }
    stored = held.length - lost;
    const [dup] = await db.query<{ duplicates: number }>(sql`SELECT coalesce(sum(n - 1), 0)::int AS duplicates FROM (
         SELECT count(*) AS n FROM check_results WHERE location_id = ${location!.id} GROUP BY monitor_id, location_id, checked_at HAVING count(*) > 1) d`);
    const figures = {
      date: new Date().toISOString(),
      monitors: { http, tcp: MONITORS - http, intervalSeconds: INTERVAL_SECONDS, perSecond: MONITORS / INTERVAL_SECONDS },
      measuredSeconds: SECONDS,
      engine: {
        checksPerSecond: Number((engineChecks / SECONDS).toFixed(1)),
        startedPerSecond: Number((engineStarted / SECONDS).toFixed(1)),
        serviceMicrosPerCheck: Math.round(engineMicros),
        postgresMicrosPerCheck: enginePgMicros === null ? null : Math.round(enginePgMicros),
      },
      probe: {
        checksPerSecond: Number((probeChecks / SECONDS).toFixed(1)),
        resultsStoredPerSecond: Number((window.stored / SECONDS).toFixed(1)),
        probeMicrosPerCheck: Math.round(probeMicros),
        probeCpuMillis: Math.round((p1.probe - p0.probe) / 1000),
        batches: window.batches,
        // Of them, stored by the steady statement (one statement with the sequence); the others took the long way.
        steadyBatches: window.steadyBatches,
        // The in-process worker holds nothing then: what it still ran (should be 0).
        engineChecksMeanwhile: after.recorded - idle.recorded,
      },
      ratioProbeToEngineCpu: Number((probeMicros / engineMicros).toFixed(2)),
      // Marginal: the difference of the service's CPU over the difference of results, two load levels of this run.
      serverMicrosPerResult: Number(marginalMicros.toFixed(1)),
      // Gross: all of the service's CPU over the window at the full load, per result stored.
      serverMicrosPerResultGross: Number(serverMicros.toFixed(1)),
      // Above the idle baseline taken while the probe is cut off (another state: for comparison with earlier runs).
      serverMicrosPerResultAboveIdle: Number(((p1.server - p0.server - idleMicrosPerSecond * SECONDS) / window.stored).toFixed(1)),
      loadLevels: levels.map((level) => ({
        resultsPerSecond: Number(level.resultsPerSecond.toFixed(1)),
        serviceCpuMillisPerSecond: Number((level.serviceMicrosPerSecond / 1000).toFixed(2)),
      })),
      postgresMicrosPerResultMarginal: pgMarginal === null ? null : Number(pgMarginal.toFixed(1)),
      serverIdle: {
        microsPerSecond: Math.round(idleMicrosPerSecond),
        transactionsPerSecond: Number(((i1.xacts - i0.xacts) / idleSeconds).toFixed(1)),
      },
      transactionsPerBatch: Number(((p1.xacts - p0.xacts) / window.batches).toFixed(1)),
      postgresMicrosPerResult: pgMicros === null ? null : Number(pgMicros.toFixed(1)),
      lagMs: window.lagMs,
      lagP99Ms: window.lagMs.p99,
      replay: {
        disconnectSeconds: DISCONNECT_SECONDS,
        buffered: held.length,
        checkedDuringCut,
        stored,
        lost,
        duplicates: dup!.duplicates,
        replaySeconds: Number(replaySeconds.toFixed(1)),
      },
    };
    const goals: Record<string, Goal> = {
      ratioProbeToEngineCpu: goal(figures.ratioProbeToEngineCpu, '<=', 1.2, "the probe's CPU per check over the engine's"),
      serverMicrosPerResult: goal(figures.serverMicrosPerResult, '<=', 20, 'µs of service CPU per stored result, marginal'),
      lagP99Ms: goal(figures.lagP99Ms, '<=', 2_000, 'ms from checked to stored (p99)'),
      replayLost: goal(figures.replay.lost, '==', 0, 'results lost across the cut'),
      replayDuplicates: goal(figures.replay.duplicates, '==', 0, 'results stored twice'),
    };
    printVerdict(figures, goals, loadBefore);
  } finally {
    if (probe && probe.exitCode === null) {
      const exited = new Promise((resolve) => probe!.once('exit', resolve));
      probe.kill('SIGTERM');
      await Promise.race([exited, sleep(15)]);
      if (probe.exitCode === null) probe.kill('SIGKILL');
    }
    proxy.close();
    await stopQuietly(service);
    targets.kill();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

async function stopQuietly(service: BenchService) {
  await service.stop().catch((error: unknown) => progress(`service stop failed: ${String(error)}`));
}

/** The results in the probe's buffer segments with a sequence above `lastSeq`: {seq, monitorId, checkedAt}, in order. */
async function bufferedBeyond(dir: string, lastSeq: number) {
  const held: Array<{ seq: number; monitorId: number; checkedAt: number }> = [];
  for (const name of (await fs.readdir(dir)).sort()) {
    if (!name.endsWith('.jsonl')) continue;
    for (const line of (await fs.readFile(path.join(dir, name), 'utf8')).split('\n')) {
      if (!line) continue;
      let parsed: WireResult;
      try {
        parsed = JSON.parse(line) as WireResult;
      } catch {
        continue; // a line being written
      }
      const [seq, , monitorId, , , checkedAt] = parsed;
      if (seq > lastSeq) held.push({ seq, monitorId, checkedAt });
    }
  }
  return held.sort((a, b) => a.seq - b.seq);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
