/**
 * The service under the console benchmark, in its own process: embedded PostgreSQL, the HTTP host
 * with the built console, a check worker serving the loopback location `local` (loopback targets
 * allowed) and the notification worker, as `npm start` runs them; no job system.
 * IPC requests (each answered with the same id):
 *   {type: 'sql', statement} -> {rows}   (seeding; a `sql` statement, wire-sql.ts)
 *   {type: 'renderDocuments'} -> {rendered}
 *   {type: 'stop'}
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/main/config';
import { startApplication } from '../../src/main/application';
import { RequestContext } from '@mikro-orm/postgresql';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../src/application/shared/transaction';
import { renderStaleWebsiteDocuments } from '../../src/infrastructure/monitoring/website-document';
import { fromWire, type WireStatement } from './wire-sql';

type Message = { type: string; id: number; statement?: WireStatement };

async function main() {
  const dataDir = process.env.BENCH_DATA_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-console-bench-')));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    CHECK_LOCATIONS: 'local',
    MONITOR_LOCATIONS: 'local',
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const app = await startApplication(config, { jobs: false, logger: pino({ level: 'silent' }) });
  const answer = async (message: Message) => {
    if (message.type === 'sql') process.send!({ id: message.id, rows: await app.database.sql.query(fromWire(message.statement!)) });
    if (message.type === 'renderDocuments')
      process.send!({
        id: message.id,
        rendered: await RequestContext.create(app.database.orm.em, () =>
          renderStaleWebsiteDocuments(app.container.get<TransactionRunner>(TRANSACTION_RUNNER)),
        ),
      });
  };
  process.on('message', async (message: Message) => {
    // A statement the database refuses is answered as an error (the bench stops at once), not left unanswered.
    await answer(message).catch((error: unknown) =>
      process.send!({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
    if (message.type === 'stop') {
      await app.stop();
      if (!process.env.BENCH_DATA_DIR) await fs.rm(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  process.send!({ type: 'ready', url: app.url });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
