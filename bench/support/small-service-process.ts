/**
 * The whole service as `npm start` runs it (HTTP API, job system, check worker, notification
 * worker, embedded PostgreSQL), for bench/small.bench.ts. IPC:
 *   {type: 'seed', count, url, intervalMinutes} -> {ms}   `count` HTTP monitors checking `url`
 *   {type: 'stats'} -> {started, recorded, heapUsed, transactions}   checks started and recorded so far, the heap in
 *     use, transactions its database ended (pg_stat_database)
 *   {type: 'stop'}
 * Its CPU, and its PostgreSQL's, are read from /proc by the bench.
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/main/config';
import { startApplication } from '../../src/main/application';
import { CheckDispatcher } from '../../src/application/scheduling/check-dispatcher';
import { tuneGarbageCollection } from '../../src/main/gc-tuning';
import { sql } from '../../src/infrastructure/persistence/sql';

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-small-bench-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    MONITOR_LOCATIONS: 'bench',
    CHECK_LOCATIONS: 'bench',
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
  });
  // As the host does (src/main/server.ts); bench/support/service.ts starts node with its flags.
  if (process.env.BENCH_GC_DEFAULTS === undefined) tuneGarbageCollection();
  const app = await startApplication(config, { logger: pino({ level: process.env.BENCH_LOG_LEVEL ?? 'error' }, pino.destination(2)) });
  const dispatcher = app.container.get(CheckDispatcher);
  process.on('message', async (m: { type: string; id: number; count?: number; url?: string; intervalMinutes?: number }) => {
    if (m.type === 'seed') {
      const started = Date.now();
      const runner = app.database.sql;
      const [org] = await runner.query<{ id: number }>(
        sql`INSERT INTO organizations (public_id, name, created_at, updated_at) VALUES (gen_random_uuid(), 'bench', now(), now()) RETURNING id`,
      );
      const [customer] = await runner.query<{ id: number }>(
        sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (gen_random_uuid(), ${org!.id}, 'bench', now(), now()) RETURNING id`,
      );
      await runner.query(
        sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, check_interval, locations, url, timeout_seconds, config)
         SELECT gen_random_uuid(), ${org!.id}, ${customer!.id}, 'website', 'http', 'http ' || g, ${m.intervalMinutes}::int, '{bench}', ${m.url}, 10, '{"checkSslEnabled": false}'::jsonb
         FROM generate_series(1, ${m.count}) g`,
      );
      process.send!({ id: m.id, ms: Date.now() - started });
    }
    if (m.type === 'stats') {
      const { started, recorded } = dispatcher.stats;
      // Transactions its database has ended so far (each statement outside BEGIN is one; this read counts as one too).
      const [row] = await app.database.sql.query<{ n: string }>(
        sql`SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()`,
      );
      process.send!({ id: m.id, started, recorded, heapUsed: process.memoryUsage().heapUsed, transactions: Number(row?.n ?? Number.NaN) });
    }
    if (m.type === 'stop') {
      await app.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  process.send!({ type: 'ready', url: app.url });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
