/**
 * The service side of bench/notify.bench.ts that records results: its embedded PostgreSQL, the
 * monitors, customers and channels, and the results/alert pipeline (RecordCheckResult, as the check
 * engine's recorder calls it). It runs no notification worker: bench/support/notify-worker-process.ts
 * delivers, in a process of its own that the bench can kill. IPC:
 *   -> {type: 'ready', url, databaseUrl}
 *   {type: 'seed', customers, monitors, receivers: [url], set?, roots?} -> {ms}   monitors up; customer i's webhook channel posts to
 *     receivers[i % n]/customers/<id>; `set` names them (default 'storm', each seed a new organization); with `roots`, each
 *     customer gets a root monitor first and the `monitors` depend on their customer's root (docs/dependencies.md)
 *   {type: 'record', status: 'up' | 'down', chunk, set?} -> {startedAt, ms}   one result per monitor of the set, through the pipeline
 *   {type: 'ledger'} -> {unrouted, pending, delivered, failed, incidentsOpen}
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { RequestContext } from '@mikro-orm/postgresql';
import { loadConfig } from '../../src/main/config';
import { startApplication } from '../../src/main/application';
import { RecordCheckResult, type RecordCheckResultInput } from '../../src/application/incidents/record-check-result';
import { CreateNotificationChannel } from '../../src/application/notifications/create-notification-channel';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../src/application/shared/transaction';
import type { Actor } from '../../src/application/shared/actor';
import { NO_TIMINGS } from '../../src/domain/checks/check-result';
import { sql } from '../../src/infrastructure/persistence/sql';

export const BENCH_LOCATION = 'bench';

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
  const recordResult = app.container.get(RecordCheckResult);
  const tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
  const sets = new Map<string, Array<{ id: number; organizationId: number; customerId: number }>>();

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
              SELECT gen_random_uuid(), ${org!.id}, c, 'website', 'http', 'server ' || c, 1, '{bench}', 'https://www.monitor-fixture.com/', 10, 1,
                '{"checkSslEnabled": false}'::jsonb FROM unnest(${customerIds}::int[]) c RETURNING id, customer_id`,
          )
        : [];
      // One failed check opens an incident (alert_consecutive_checks 1), so one round of results is the storm.
      const monitors = (
        await runner.query<{ id: string; customer_id: number }>(
          sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, check_interval, locations, url,
                               timeout_seconds, alert_consecutive_checks, config)
         SELECT gen_random_uuid(), ${org!.id}, (${customerIds}::int[])[1 + g % cardinality(${customerIds}::int[])], 'website', 'http', 'site ' || g, 1, '{bench}', 'https://www.monitor-fixture.com/', 10, 1,
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
      // As the check engine's recorder does: chunks of a worker's batch, each in a unit of work and
      // a transaction of its own, monitors in id order.
      const startedAt = Date.now();
      const checkedAt = new Date(startedAt);
      const down = m.status === 'down';
      const inputs: RecordCheckResultInput[] = (sets.get(String(m.set ?? 'storm')) ?? []).map((monitor) => ({
        monitorId: monitor.id,
        organizationId: monitor.organizationId,
        customerId: monitor.customerId,
        location: BENCH_LOCATION,
        intervalMs: 60_000,
        result: {
          status: down ? 'down' : 'up',
          reasonCode: down ? 'httpStatus' : null,
          message: down ? 'Answered 503' : null,
          timings: NO_TIMINGS(12),
          evidence: down ? { statusCode: 503 } : {},
          checkedAt,
        },
      }));
      const chunk = Number(m.chunk);
      for (let i = 0; i < inputs.length; i += chunk) {
        await RequestContext.create(orm.em, () => tx.run(() => recordResult.executeMany(inputs.slice(i, i + chunk))));
      }
      process.send!({ id: m.id, startedAt, ms: Date.now() - startedAt });
    }
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
