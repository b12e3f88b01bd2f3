/**
 * The service with its check worker, for bench/engine.bench.ts. IPC:
 *   {type: 'seed', http, tcp, httpUrl, tcpPort, intervals, storm} -> {ms}   monitors inserted (planned by the trigger),
 *     their check intervals (minutes) taken in turn from `intervals`; the first `storm` HTTP monitors
 *     (1-minute interval) check `httpUrl`storm/<n> instead, in 100 customers of their own; `intervalSeconds`
 *     puts every monitor on that interval instead
 *   {type: 'stats'} -> {cpuMicros, rss, started, recorded, dropped, unrecorded, lateness}   (cumulative lateness buckets)
 *   {type: 'heap'} -> {bytes, rss}   heap in use after a full collection, and the resident set then
 *   {type: 'rollups'} -> {rows, bytes, hoursRolledUp}   three results of every scheduled monitor in a completed
 *     hour, rolled up as the hourly job does: check_result_rollups' rows and bytes (with its index)
 *   {type: 'loop-delay'} -> {p50, p99, max}   the event loop's delay (ms) since the previous such request
 *   {type: 'storage'} -> {resultRows, resultBytes, databaseBytes}   check_results (every partition, with
 *     indexes and TOAST) and the whole database, in bytes
 *   The API benches' requests too, for benches that load the service's HTTP API while the engine runs
 *   (bench/status-page.bench.ts with BENCH_MONITORS, bench/soak.bench.ts): {type: 'urls'} -> {url, bareUrl},
 *   {type: 'cpu'} -> {serverMicros, postgresMicros}, {type: 'sql', statement} -> {rows},
 *   {type: 'renderDocuments'}, {type: 'bare', text, headers} (see api-service-process.ts)
 *   The probe bench's requests (bench/support/probe-hooks.ts): {type: 'probe-location', code}, {type: 'probe-window'}
 *   {type: 'profile-start'} / {type: 'profile-stop', file}   a CPU profile of the measured window only
 *   {type: 'heap-profile-start'} / {type: 'heap-profile-stop', file}   sampled allocations promoted, then collected
 */
import 'reflect-metadata';
import { fromWire, type WireStatement } from './wire-sql';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import pino from 'pino';
import { loadConfig } from '../../src/main/config';
import { startApplication } from '../../src/main/application';
import { checkWorkerOptions } from '../../src/main/modules/check-worker';
import { getterOf } from '../../src/main/modules/bindings';
import { CheckDispatcher } from '../../src/application/scheduling/check-dispatcher';
import { CHECK_PLANNER, CHECK_SCHEDULE, OUTCOME_RECORDER } from '../../src/application/scheduling/ports';
import { CLOCK } from '../../src/application/shared/clock';
import { checkResult, NO_TIMINGS } from '../../src/domain/checks/check-result';
import type { CheckRequest } from '../../src/domain/checks/check-request';
import { dispatcherOptions } from '../../src/main/modules/scheduling.module';
import { startCheckWorker } from '../../src/interfaces/jobs/check-worker';
import { tuneGarbageCollection } from '../../src/main/gc-tuning';
import { RequestContext } from '@mikro-orm/postgresql';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../src/application/shared/transaction';
import { renderStaleWebsiteDocuments } from '../../src/infrastructure/monitoring/website-document';
import { MaintainResultStorage } from '../../src/application/results/maintain-result-storage';
import { postgresCpuMicros } from './postgres-cpu';
import { startBareRoute } from './bare-route';
import { sql } from '../../src/infrastructure/persistence/sql';
import { installProbeHooks, probeMessage } from './probe-hooks';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-engine-bench-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    MONITOR_LOCATIONS: 'bench',
    CHECK_LOCATIONS: 'bench',
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
  });
  const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'error' }, pino.destination(2));
  // BENCH_CHECKER=null: every check answers up at once, so the figures are the engine's own overhead.
  // BENCH_CHECKER=bare: every check is the bench's bare check (node:http GET, net connect) instead of
  // the adapters, to tell what the engine's process costs a check from what the adapters add.
  const substitute = process.env.BENCH_CHECKER === 'null' ? async () => undefined : process.env.BENCH_CHECKER === 'bare' ? bareCheck : null;
  // As the host does (src/main/server.ts); bench/support/service.ts starts node with its flags.
  if (process.env.BENCH_GC_DEFAULTS === undefined) tuneGarbageCollection();
  installProbeHooks();
  const app = await startApplication(config, { jobs: false, logger, checkWorker: !substitute });
  const c = app.container;
  const dispatcher = substitute
    ? new CheckDispatcher(
        c.get(CHECK_SCHEDULE),
        c.get(CHECK_PLANNER),
        async (request) => {
          const checkedAt = new Date();
          await substitute(request);
          return checkResult({ kind: request.kind, findings: [], evidence: {}, checkedAt, timings: NO_TIMINGS(0) });
        },
        c.get(OUTCOME_RECORDER),
        c.get(CLOCK),
        dispatcherOptions(config),
      )
    : c.get(CheckDispatcher);
  const substituteWorker = substitute
    ? startCheckWorker(dispatcher, logger, {
        ...checkWorkerOptions(getterOf(app.container), app.database, app.databaseUrl, logger),
        // BENCH_PUMP_MS: how often the worker claims and reads changes (an experiment; the host's default otherwise).
        pumpEveryMs: process.env.BENCH_PUMP_MS ? Number(process.env.BENCH_PUMP_MS) : undefined,
      })
    : undefined;
  const runner = app.database.sql;
  const profiler = new Session();
  const bareRoute = await startBareRoute();
  // How long the service's one thread keeps a ready callback (a view, a check's socket) waiting.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  process.on(
    'message',
    async (m: { type: string; id: number; http?: number; tcp?: number; httpUrl?: string; tcpPort?: number; statement?: WireStatement }) => {
      if (await probeMessage(app, m)) return;
      if (m.type === 'urls') process.send!({ id: m.id, url: app.url, bareUrl: bareRoute.url });
      if (m.type === 'cpu') {
        const { user, system } = process.cpuUsage();
        process.send!({ id: m.id, serverMicros: user + system, postgresMicros: await postgresCpuMicros(process.pid) });
      }
      if (m.type === 'sql') process.send!({ id: m.id, rows: await runner.query(fromWire(m.statement!)) });
      if (m.type === 'renderDocuments')
        process.send!({
          id: m.id,
          rendered: await RequestContext.create(app.database.orm.em, () =>
            renderStaleWebsiteDocuments(app.container.get<TransactionRunner>(TRANSACTION_RUNNER)),
          ),
        });
      if (m.type === 'bare') {
        bareRoute.answer(m as never);
        process.send!({ id: m.id });
      }
      if (m.type === 'loop-delay') {
        const ms = (ns: number) => Number((ns / 1e6).toFixed(1));
        process.send!({ id: m.id, p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) });
        loopDelay.reset();
      }
      if (m.type === 'rollups') {
        // A past hour (two ago) with three results per scheduled monitor (varied response times, so the
        // histogram has several buckets), then the hourly upkeep: the rollup bytes one monitor-hour costs.
        const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000);
        await runner.query(
          sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status, response_ms)
         SELECT s.monitor_id, ${hour}::timestamptz + ((s.monitor_id * 7 + k * 1200) % 3600) * interval '1 second', l.id, 1, 20 + (random() * 900)::int
         FROM check_schedule s JOIN check_locations l ON l.code = s.location CROSS JOIN generate_series(0, 2) k`,
        );
        const report = await RequestContext.create(app.database.orm.em, () => app.container.get(MaintainResultStorage).execute());
        const [row] = await runner.query<{ rows: string; bytes: string }>(
          sql`SELECT count(*)::text AS rows, pg_total_relation_size('check_result_rollups')::text AS bytes FROM check_result_rollups`,
        );
        process.send!({ id: m.id, rows: Number(row!.rows), bytes: Number(row!.bytes), hoursRolledUp: report.hoursRolledUp });
      }
      if (m.type === 'storage') {
        // Every partition of check_results with its indexes and TOAST: what a day of results costs on disk.
        const [row] = await runner.query<{ rows: string; results: string; database: string }>(
          sql`SELECT (SELECT count(*) FROM check_results)::text AS rows,
           (SELECT coalesce(sum(pg_total_relation_size(relid)), 0) FROM pg_partition_tree('check_results'))::text AS results,
           pg_database_size(current_database())::text AS database`,
        );
        process.send!({ id: m.id, resultRows: Number(row!.rows), resultBytes: Number(row!.results), databaseBytes: Number(row!.database) });
      }
      if (m.type === 'seed') {
        const intervals = (m as { intervals?: number[] }).intervals ?? [1];
        // intervalSeconds (bench/probe.bench.ts): every monitor on that interval instead (check_interval follows it).
        const seconds = (m as { intervalSeconds?: number }).intervalSeconds ?? null;
        const [org] = await runner.query<{ id: number }>(
          sql`INSERT INTO organizations (public_id, name, created_at, updated_at) VALUES (gen_random_uuid(), 'bench', now(), now()) RETURNING id`,
        );
        const [customer] = await runner.query<{ id: number }>(
          sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (gen_random_uuid(), ${org!.id}, 'bench', now(), now()) RETURNING id`,
        );
        const storm = Math.min(Number((m as { storm?: number }).storm ?? 0), m.http ?? 0);
        const stormCustomers = await runner.query<{ id: number }>(
          sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at)
         SELECT gen_random_uuid(), ${org!.id}, 'storm ' || g, now(), now() FROM generate_series(1, ${storm > 0 ? 100 : 0}) g RETURNING id`,
        );
        const started = process.hrtime.bigint();
        await runner.query(
          sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, check_interval, check_interval_seconds, locations, url, timeout_seconds, config)
         SELECT gen_random_uuid(), ${org!.id}, CASE WHEN g <= ${storm} THEN (${stormCustomers.map((c) => c.id)}::int[])[1 + g % 100] ELSE ${customer!.id} END, 'website', 'http', 'http ' || g,
           CASE WHEN ${seconds}::int IS NOT NULL THEN NULL WHEN g <= ${storm} THEN 1 ELSE (${intervals}::int[])[1 + g % cardinality(${intervals}::int[])] END, ${seconds}::int, '{bench}',
           CASE WHEN g <= ${storm} THEN ${m.httpUrl} || 'storm/' || g ELSE ${m.httpUrl} END, 10, '{"checkSslEnabled": false}'::jsonb
         FROM generate_series(1, ${m.http}) g`,
        );
        await runner.query(
          sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, check_interval, check_interval_seconds, locations, hostname, port, timeout_seconds)
         SELECT gen_random_uuid(), ${org!.id}, ${customer!.id}, 'tcp', 'tcp', 'tcp ' || g, CASE WHEN ${seconds}::int IS NOT NULL THEN NULL ELSE (${intervals}::int[])[1 + g % cardinality(${intervals}::int[])] END, ${seconds}::int, '{bench}', '127.0.0.1', ${m.tcpPort}, 10
         FROM generate_series(1, ${m.tcp}) g`,
        );
        // BENCH_SEED_STATES: every monitor starts with an up alert state, as after its first result,
        // so a run on long intervals measures the steady engine rather than first results (detail
        // samples come due at their steady rate from the start: they follow a grid, not the state).
        if (process.env.BENCH_SEED_STATES)
          await runner.query(
            sql`INSERT INTO monitor_alert_states (monitor_id, organization_id, customer_id, check_interval_seconds, locations, updated_at)
         SELECT id, organization_id, customer_id, check_interval_seconds,
           jsonb_build_object('bench', jsonb_build_object('consecutiveFailures', 0, 'failingSince', null, 'lastStatus', 'up', 'lastReasonCode', null,
             'lastCheckedAt', now()::text)), now()
         FROM monitors ON CONFLICT DO NOTHING`,
          );
        process.send!({ id: m.id, ms: Number(process.hrtime.bigint() - started) / 1e6 });
      }
      if (m.type === 'burst') {
        // `count` held monitors due in the same instant (the burst of 10,000): triggered at
        // once, as trigger-check does for each, so their holder re-reads and runs them all.
        await runner.query(
          sql`INSERT INTO check_changes (monitor_id, triggered) SELECT monitor_id, true FROM check_schedule WHERE location = 'bench' LIMIT ${(m as { count?: number }).count ?? 10_000}`,
        );
        process.send!({ id: m.id, at: Date.now() });
      }
      if (m.type === 'heap') {
        // Live heap after a full collection: what the process keeps per scheduled monitor.
        gc();
        const memory = process.memoryUsage();
        process.send!({ id: m.id, bytes: memory.heapUsed, rss: memory.rss });
      }
      if (m.type === 'stats') {
        const usage = process.cpuUsage();
        const { started, recorded, dropped } = dispatcher.stats;
        process.send!({
          id: m.id,
          cpuMicros: usage.user + usage.system,
          rss: process.memoryUsage().rss,
          started,
          recorded,
          dropped,
          unrecorded: dispatcher.unrecorded,
          lateness: dispatcher.stats.lateness.snapshot(),
        });
      }
      if (m.type === 'profile-start') {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
        process.send!({ id: m.id });
      }
      if (m.type === 'heap-profile-start') {
        // Allocations that outlived a scavenge (promoted) and died later: what drives full collections.
        profiler.connect();
        await profiler.post('HeapProfiler.enable');
        await profiler.post('HeapProfiler.startSampling', {
          samplingInterval: 4096,
          includeObjectsCollectedByMajorGC: true,
          includeObjectsCollectedByMinorGC: false,
        } as never);
        process.send!({ id: m.id });
      }
      if (m.type === 'heap-profile-stop') {
        const { profile } = await profiler.post('HeapProfiler.stopSampling');
        await fs.writeFile(String((m as { file?: string }).file), JSON.stringify(profile));
        profiler.disconnect();
        process.send!({ id: m.id });
      }
      if (m.type === 'profile-stop') {
        const { profile } = await profiler.post('Profiler.stop');
        await fs.writeFile(String((m as { file?: string }).file), JSON.stringify(profile));
        profiler.disconnect();
        process.send!({ id: m.id });
      }
      if (m.type === 'stop') {
        bareRoute.close();
        await substituteWorker?.stop();
        await app.stop();
        await fs.rm(dataDir, { recursive: true, force: true });
        process.exit(0);
      }
    },
  );
  process.send!({ type: 'ready', url: app.url });
}

/** The bench's bare checks (bench/engine.bench.ts): a new-connection GET, a connect and close. */
function bareCheck(request: CheckRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    if (request.kind === 'http') {
      http
        .get(request.url, { agent: false }, (res) => {
          res.resume();
          res.once('end', resolve);
        })
        .once('error', reject);
    } else if (request.kind === 'tcp') {
      const socket = net.connect({ host: request.host, port: request.port }, () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', reject);
    } else {
      reject(new Error(`no bare check for ${request.kind}`));
    }
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
