/**
 * The service under the API benchmark, in its own process so its CPU is measured apart from the
 * load generator's. Besides the service it serves a bare Express route, GET /bare, answering from
 * memory whatever page it was last given: the baseline a list endpoint is compared with (and POST
 * /bare, parsing a JSON body and answering 202: the ingest bench's baseline).
 * IPC requests (each answered with the same id):
 *   {type: 'urls'}                -> {url, bareUrl}
 *   {type: 'cpu'}                 -> {serverMicros, userMicros, systemMicros, postgresMicros | null}
 *   {type: 'sql', statement}      -> {rows}      (seeding; a `sql` statement, wire-sql.ts; `prepare: true` runs it prepared)
 *   {type: 'renderDocuments'}     -> {rendered}  (the stored website records of seeded rows, as writes leave them)
 *   {type: 'bare', body}          -> {}          (the page GET /bare answers)
 *   {type: 'bare', text, headers} -> {}          (GET /bare answers these bytes with these headers instead: an HTML page)
 *   {type: 'profile', file}       -> {}          (starts a CPU profile; again with file: writes it there)
 *   {type: 'stop'}
 * BENCH_UNIX_SOCKET=1 connects to the embedded server over its Unix socket instead of loopback TCP.
 */
import 'reflect-metadata';
import { fromWire, type WireStatement } from './wire-sql';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import inspector from 'node:inspector/promises';
import pino from 'pino';
import { loadConfig } from '../../src/main/config';
import { startApplication } from '../../src/main/application';
import { RequestContext } from '@mikro-orm/postgresql';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../src/application/shared/transaction';
import { renderStaleWebsiteDocuments } from '../../src/infrastructure/monitoring/website-document';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/infrastructure/persistence/embedded-postgres';
import { postgresCpuMicros } from './postgres-cpu';
import { startBareRoute } from './bare-route';

type Message = { type: string; id: number; statement?: WireStatement; prepare?: boolean; body?: unknown };

async function main() {
  const dataDir = process.env.BENCH_DATA_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-api-bench-')));
  let databaseUrl = process.env.DATABASE_URL;
  let embedded: EmbeddedDatabase | undefined;
  if (!databaseUrl && process.env.BENCH_UNIX_SOCKET) {
    embedded = await startEmbeddedPostgres(dataDir);
    const url = new URL(embedded.url);
    databaseUrl = `postgresql://${url.username}:${url.password}@%2Ftmp:${url.port}${url.pathname}`;
  }
  const config = { ...loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir }), databaseUrl };
  const app = await startApplication(config, { jobs: false, logger: pino({ level: 'silent' }) });

  let profiler: inspector.Session | undefined;
  const bareRoute = await startBareRoute();
  const bareUrl = bareRoute.url;

  process.on('message', async (message: Message) => {
    if (message.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      const postgresMicros = process.env.DATABASE_URL ? null : await postgresCpuMicros(process.pid);
      process.send!({ id: message.id, serverMicros: user + system, userMicros: user, systemMicros: system, postgresMicros });
    }
    if (message.type === 'urls') process.send!({ id: message.id, url: app.url, bareUrl });
    if (message.type === 'sql')
      process.send!({
        id: message.id,
        rows: await app.database.sql.query(fromWire(message.statement!), { prepare: message.prepare === true }),
      });
    if (message.type === 'renderDocuments')
      process.send!({
        id: message.id,
        rendered: await RequestContext.create(app.database.orm.em, () =>
          renderStaleWebsiteDocuments(app.container.get<TransactionRunner>(TRANSACTION_RUNNER)),
        ),
      });
    if (message.type === 'bare') {
      bareRoute.answer(message as never);
      process.send!({ id: message.id });
    }
    if (message.type === 'profile') {
      if (!profiler) {
        profiler = new inspector.Session();
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
      } else {
        const { profile } = await profiler.post('Profiler.stop');
        await fs.writeFile(String((message as { file?: string }).file), JSON.stringify(profile));
        profiler.disconnect();
        profiler = undefined;
      }
      process.send!({ id: message.id });
    }
    if (message.type === 'stop') {
      bareRoute.close();
      await app.stop();
      await embedded?.stop();
      if (!process.env.BENCH_DATA_DIR) await fs.rm(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  process.send!({ type: 'ready', url: app.url, bareUrl });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
