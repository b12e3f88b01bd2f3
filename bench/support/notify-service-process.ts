/**
 * The service side of bench/notify.bench.ts that records results: its embedded PostgreSQL, the
 * monitors (the package's alertConsecutiveChecks), customers and channels, and the check engine's
 * recording path (the recorder its workers call, confirmation re-checks included). It runs no notification worker: bench/support/notify-worker-process.ts
 * delivers, in a process of its own that the bench can kill. IPC:
 *   -> {type: 'ready', url, databaseUrl}
 *   {type: 'seed', customers, monitors, receivers: [url], set?, roots?} -> {ms}   monitors up; customer i's webhook channel posts to
 *     receivers[i % n]/customers/<id>; `set` names them (default 'storm', each seed a new organization); with `roots`, each
 *     customer gets a root monitor first and the `monitors` depend on their customer's root (docs/dependencies.md)
 *   {type: 'record', status: 'up' | 'down', chunk, set?} -> {startedAt, decidedAt, ms, msToRecordDeciding, rounds, consecutiveChecks}
 *     one result per monitor of the set through the check engine's recorder (OUTCOME_RECORDER, as a registered worker), then the
 *     confirmation rounds those results ask for, each at its time, until none is asked for
 *   {type: 'ledger'} -> {unrouted, pending, delivered, failed, incidentsOpen}
 *   {type: 'profile-start'} / {type: 'profile-stop', file}   a CPU profile of this process (the recording)
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cpuProfiler } from './cpu-profiler';
import pino from 'pino';
import { RequestContext } from '@mikro-orm/postgresql';
import { loadConfig } from '../../src/main/config';
import { startApplication } from '../../src/main/application';
import {
  CHECK_SCHEDULE,
  OUTCOME_RECORDER,
  type CheckOutcome,
  type CheckSchedule,
  type OutcomeRecorder,
  type PlannedCheck,
} from '../../src/application/scheduling/ports';
import { BatchRecorder, RECORD_CHUNK } from '../../src/application/scheduling/dispatcher/batch-recorder';
import { heldOf } from '../../src/application/scheduling/dispatcher/held-checks';
import { WorkerLease } from '../../src/application/scheduling/dispatcher/worker-lease';
import { DEFAULT_ALERT_SETTINGS } from '../../src/domain/monitoring/alert-settings';
import { CreateNotificationChannel } from '../../src/application/notifications/create-notification-channel';
import type { Actor } from '../../src/application/shared/actor';
import { NO_TIMINGS, type CheckResult } from '../../src/domain/checks/check-result';
import { sql } from '../../src/infrastructure/persistence/sql';

export const BENCH_LOCATION = 'bench';
/** The package's alertConsecutiveChecks, as a monitor created under the default package gets it. */
const CONSECUTIVE = DEFAULT_ALERT_SETTINGS.alertConsecutiveChecks;
const WORKER_ID = 'bench-recorder';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-notify-bench-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    CREDENTIALS_KEY: process.env.BENCH_CREDENTIALS_KEY,
    MONITOR_LOCATIONS: BENCH_LOCATION,
    CHECK_LOCATIONS: 'none',
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
  });
  const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'error' }, pino.destination(2));
  const app = await startApplication(config, { jobs: false, checkWorker: false, notificationWorker: false, logger });
  const { sql: runner, orm } = app.database;
  // The check engine's recording path: the recorder its workers call (each chunk in a transaction
  // of its own, the results judged and stored with the worker's renewal in it, and the
  // confirmation re-checks they ask for logged in the schedule's change log), as a registered worker.
  // Chunks of the engine's size go through its batch recorder (RECORD_CONCURRENCY in flight), as a
  // worker's recording loop hands them over; other sizes are recorded one after another.
  const recorder = app.container.get<OutcomeRecorder>(OUTCOME_RECORDER);
  const lease = new WorkerLease(app.container.get<CheckSchedule>(CHECK_SCHEDULE), WORKER_ID, [BENCH_LOCATION], 3_600_000, 0);
  await lease.keepAlive(new Date());
  const clock = { now: () => new Date() };
  const recordAll = async (outcomes: CheckOutcome[], chunk: number) => {
    if (chunk !== RECORD_CHUNK) {
      for (let i = 0; i < outcomes.length; i += chunk) {
        await recorder.record(lease.workerId, outcomes.slice(i, i + chunk), new Date(), lease.aliveUntil(new Date()));
      }
      return;
    }
    const batches = new BatchRecorder(recorder, clock, lease, { recorded: 0, dropped: 0 }, () => {
      throw new Error('the bench recorder was fenced');
    });
    for (const outcome of outcomes) batches.add(heldOf(outcome.planned.check, null), outcome);
    await batches.flush();
  };
  const sets = new Map<string, Array<{ id: number; organizationId: number; customerId: number }>>();

  const profiling = cpuProfiler();
  process.on('message', async (m: { type: string; id: number; [key: string]: unknown }) => {
    if (m.type === 'seed') {
      const started = Date.now();
      const [org] = await runner.query<{ id: number }>(
        sql`INSERT INTO organizations (public_id, name, created_at, updated_at) VALUES (gen_random_uuid(), 'bench', now(), now()) RETURNING id`,
      );
      const customers = await runner.query<{ id: number }>(
        sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at)
         SELECT gen_random_uuid(), ${org!.id}, 'customer ' || g, now(), now() FROM generate_series(1, ${m.customers}) g RETURNING id`,
      );
      const customerIds = customers.map((c) => Number(c.id)).sort((a, b) => a - b);
      // Roots first (lower ids: their results come first, as the recorder orders monitors by id).
      const roots = m.roots
        ? await runner.query<{ id: string; customer_id: number }>(
            sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, check_interval, locations, url,
                               timeout_seconds, alert_consecutive_checks, config)
              SELECT gen_random_uuid(), ${org!.id}, c, 'website', 'http', 'server ' || c, 1, '{bench}', 'https://www.monitor-fixture.com/', 10, ${CONSECUTIVE},
                '{"checkSslEnabled": false}'::jsonb FROM unnest(${customerIds}::int[]) c RETURNING id, customer_id`,
          )
        : [];
      // The package's alertConsecutiveChecks: a failure asks for a confirmation round, which opens the incident.
      const monitors = (
        await runner.query<{ id: string; customer_id: number }>(
          sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, check_interval, locations, url,
                               timeout_seconds, alert_consecutive_checks, config)
         SELECT gen_random_uuid(), ${org!.id}, (${customerIds}::int[])[1 + g % cardinality(${customerIds}::int[])], 'website', 'http', 'site ' || g, 1, '{bench}', 'https://www.monitor-fixture.com/', 10, ${CONSECUTIVE},
           '{"checkSslEnabled": false}'::jsonb
         FROM generate_series(1, ${m.monitors}) g RETURNING id, customer_id`,
        )
      )
        .concat(roots)
        .map((row) => ({ id: Number(row.id), organizationId: org!.id, customerId: Number(row.customer_id) }))
        .sort((a, b) => a.id - b.id);
      sets.set(String(m.set ?? 'storm'), monitors);
      if (m.roots) {
        await runner.query(
          sql`UPDATE monitors d SET depends_on = ARRAY[r.id] FROM monitors r
            WHERE d.organization_id = ${org!.id} AND r.organization_id = ${org!.id} AND r.customer_id = d.customer_id
              AND r.name LIKE 'server %' AND d.name NOT LIKE 'server %'`,
        );
      }
      // Every monitor up, as after its first results (a state per monitor and location), without
      // going through the pipeline 10,000 times before the measurement.
      await runner.query(
        sql`INSERT INTO monitor_alert_states (monitor_id, organization_id, customer_id, check_interval_seconds, locations, updated_at)
         SELECT id, organization_id, customer_id, check_interval_seconds,
           jsonb_build_object(${BENCH_LOCATION}::text, jsonb_build_object('consecutiveFailures', 0, 'failingSince', null, 'lastStatus', 'up', 'lastReasonCode', null,
             'lastCheckedAt', (now() - interval '1 minute')::text)), now()
         FROM monitors WHERE organization_id = ${org!.id} ON CONFLICT DO NOTHING`,
      );
      const actor: Actor = {
        kind: 'session',
        userId: null,
        role: 'admin',
        scope: { organizationId: org!.id, customerId: null },
        isPlatformAdmin: false,
        isPlatformSupporter: false,
        sessionId: null,
        tokenId: null,
        mfaEnabled: false,
        stepUpVerifiedAt: null,
        agentScopes: [],
      };
      const receivers = m.receivers as string[];
      const create = app.container.get(CreateNotificationChannel);
      for (const [i, customerId] of customerIds.entries()) {
        await RequestContext.create(orm.em, () =>
          create.execute(actor, {
            name: `hook ${i}`,
            type: 'webhook',
            customerId,
            config: { url: `${receivers[i % receivers.length]}/customers/${customerId}` },
          }),
        );
      }
      process.send!({ id: m.id, ms: Date.now() - started });
    }
    if (m.type === 'record') {
      // As the check engine records: rounds of results (every monitor of the set, then the
      // confirmation re-checks the results asked for, each at its time), each round in chunks of a
      // worker's batch through the engine's recorder, monitors in id order. Rounds go on while
      // results ask for confirmations (at most alertConsecutiveChecks + 2).
      const monitors = sets.get(String(m.set ?? 'storm')) ?? [];
      const byId = new Map(monitors.map((monitor) => [monitor.id, monitor]));
      const down = m.status === 'down';
      const chunk = Number(m.chunk);
      const rounds: Array<{ at: number; results: number; ms: number }> = [];
      const due: Array<{ at: number; ids: number[] }> = [{ at: Date.now(), ids: monitors.map((monitor) => monitor.id) }];
      while (due.length > 0 && rounds.length < CONSECUTIVE + 2) {
        const round = due.shift()!;
        if (round.at > Date.now()) await sleep(round.at - Date.now());
        const started = Date.now();
        const checkedAt = new Date(started);
        const [{ seq: before } = { seq: '0' }] = await runner.query<{ seq: string }>(
          sql`SELECT COALESCE(max(seq), 0)::text AS seq FROM check_changes`,
        );
        const outcomes = round.ids.map((id) => outcomeOf(byId.get(id)!, down, checkedAt));
        await recordAll(outcomes, chunk);
        rounds.push({ at: started, results: outcomes.length, ms: Date.now() - started });
        // The confirmations this round asked for, grouped by their time (the engine runs each at its time).
        const asked = await runner.query<{ monitor_id: string; at_ms: string }>(
          sql`SELECT monitor_id::text, (extract(epoch FROM changed_at) * 1000)::bigint::text AS at_ms FROM check_changes
               WHERE seq > ${before}::bigint AND triggered AND monitor_id = ANY(${[...byId.keys()]}::bigint[])`,
        );
        const groups = new Map<number, number[]>();
        for (const row of asked) groups.set(Number(row.at_ms), [...(groups.get(Number(row.at_ms)) ?? []), Number(row.monitor_id)]);
        // Confirmations within a second of each other are one round (a worker's tick starts them together).
        for (const [at, ids] of [...groups].sort((x, y) => x[0] - y[0])) {
          const last = due.at(-1);
          if (last && at - last.at < 1_000) last.ids.push(...ids);
          else due.push({ at, ids });
        }
        for (const round of due) round.ids = [...new Set(round.ids)].sort((x, y) => x - y);
      }
      const last = rounds.at(-1)!;
      process.send!({
        id: m.id,
        startedAt: rounds[0]!.at,
        // The round whose results decided (the last one): its start is when the deciding results were checked.
        decidedAt: last.at,
        ms: rounds.reduce((sum, round) => sum + round.ms, 0),
        msToRecordDeciding: last.ms,
        rounds,
        consecutiveChecks: CONSECUTIVE,
      });
    }
    if (await profiling(m)) return;
    if (m.type === 'ledger') {
      const [row] = await runner.query<Record<string, number>>(
        sql`SELECT (SELECT count(*)::int FROM notification_outbox WHERE routed_at IS NULL) AS unrouted,
                count(*) FILTER (WHERE status = 'pending')::int AS pending,
                count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
                count(*) FILTER (WHERE status = 'failed')::int AS failed,
                (SELECT count(*)::int FROM incidents WHERE status = 'open') AS "incidentsOpen"
           FROM notification_deliveries`,
      );
      process.send!({ id: m.id, ...row });
    }
    if (m.type === 'stop') {
      await app.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  process.send!({ type: 'ready', url: app.url, databaseUrl: app.databaseUrl });
}

/** One finished check of the monitor at the bench location, as a worker hands it to its recorder. */
function outcomeOf(monitor: { id: number; organizationId: number; customerId: number }, down: boolean, checkedAt: Date): CheckOutcome {
  const planned: PlannedCheck = {
    check: { monitorId: monitor.id, location: BENCH_LOCATION, slot: checkedAt, intervalMs: 60_000, phaseMs: 0 },
    // The recorder reads the check's identity from `check`; the request itself is the checker's.
    request: { kind: 'http' } as unknown as PlannedCheck['request'],
    organizationId: monitor.organizationId,
    customerId: monitor.customerId,
  };
  const result: CheckResult = {
    kind: 'http',
    status: down ? 'down' : 'up',
    reason: down ? { status: 'down', code: 'unexpectedStatus', message: 'Answered 503' } : null,
    findings: [],
    timings: NO_TIMINGS(12),
    evidence: (down ? { statusCode: 503 } : {}) as unknown as CheckResult['evidence'],
    checkedAt,
  };
  return { planned, result, startedAt: checkedAt };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
