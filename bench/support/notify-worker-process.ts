/**
 * The delivering side of bench/notify.bench.ts: the service with its notification worker only
 * (routing the outbox into the ledger, claiming, sending, settling), on the bench service's
 * PostgreSQL (BENCH_DATABASE_URL), resolving the receivers' names through BENCH_DNS_SERVER, as a process the bench may kill (SIGKILL) and start again. IPC:
 *   -> {type: 'ready', url}
 *   {type: 'cpu'} -> {cpuMicros}   user + system of this process
 *   {type: 'profile-start'} / {type: 'profile-stop', file}   a CPU profile of the measured window
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cpuProfiler } from './cpu-profiler';
import pino from 'pino';
import { loadConfig } from '../../src/main/config';
import { startApplication } from '../../src/main/application';

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-notify-worker-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    CREDENTIALS_KEY: process.env.BENCH_CREDENTIALS_KEY,
    MONITOR_LOCATIONS: 'bench',
    CHECK_LOCATIONS: 'none',
    CHECK_PRIVATE_ALLOWLIST: '127.0.0.0/8',
    DNS_SERVERS: process.env.BENCH_DNS_SERVER,
    // The service's default lease unless BENCH_LEASE_MS says otherwise (how long a killed worker's claims wait).
    NOTIFY_LEASE_MS: process.env.BENCH_LEASE_MS,
  });
  const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'error' }, pino.destination(2));
  const app = await startApplication(
    { ...config, databaseUrl: process.env.BENCH_DATABASE_URL },
    { jobs: false, checkWorker: false, logger },
  );
  const profiling = cpuProfiler();
  process.on('message', async (m: { type: string; id: number; file?: string }) => {
    if (m.type === 'cpu') {
      const usage = process.cpuUsage();
      process.send!({ id: m.id, cpuMicros: usage.user + usage.system });
    }
    if (await profiling(m)) return;
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
