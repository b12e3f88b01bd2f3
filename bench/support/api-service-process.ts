/**
 * The service under the API benchmark, in its own process so its CPU is measured apart from the
 * load generator's. Besides the service it serves a bare Express route, GET /bare, answering from
 * memory whatever page it was last given: the baseline a list endpoint is compared with.
 * IPC requests (each answered with the same id):
 *   {type: 'urls'}                -> {url, bareUrl}
 *   {type: 'cpu'}                 -> {serverMicros, postgresMicros | null}
 *   {type: 'sql', sql, params}    -> {rows}      (seeding; `?` placeholders)
 *   {type: 'bare', body}          -> {}          (the page GET /bare answers)
 *   {type: 'stop'}
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { loadConfig } from '../../src/main/config';
import { startApplication } from '../../src/main/application';
import { postgresCpuMicros } from './postgres-cpu';

type Message = { type: string; id: number; sql?: string; params?: unknown[]; body?: unknown };

const serverMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

async function main() {
  const dataDir = process.env.BENCH_DATA_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-api-bench-')));
  const config = { ...loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir }), databaseUrl: process.env.DATABASE_URL };
  const app = await startApplication(config, { jobs: false, logger: pino({ level: 'silent' }) });

  let barePage: unknown = { items: [], total: 0, page: 1, perPage: 50 };
  const bare = express();
  bare.disable('x-powered-by');
  bare.get('/bare', (_req, res) => {
    res.json(barePage);
  });
  const bareServer = http.createServer(bare);
  bareServer.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => bareServer.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}`;

  process.on('message', async (message: Message) => {
    if (message.type === 'cpu') {
      process.send!({ id: message.id, serverMicros: serverMicros(), postgresMicros: config.databaseUrl ? null : await postgresCpuMicros(process.pid) });
    }
    if (message.type === 'urls') process.send!({ id: message.id, url: app.url, bareUrl });
    if (message.type === 'sql') process.send!({ id: message.id, rows: await app.database.sql.query(message.sql!, message.params ?? []) });
    if (message.type === 'bare') {
      barePage = message.body;
      process.send!({ id: message.id });
    }
    if (message.type === 'stop') {
      bareServer.closeAllConnections();
      bareServer.close();
      await app.stop();
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
