/**
 * The service under benchmark, in its own process so its CPU is measured apart from the load
 * generator's. Started by bench/support/service.ts; answers IPC requests:
 *   {type: 'cpu'}                    -> {cpuMicros}  (user + system, this process)
 *   {type: 'auth', token, n}         -> {cpuMicrosPerCall} for authentication + gates, cache warm
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/main/config';
import { startApplication } from '../../src/main/application';
import { AuthenticateCaller } from '../../src/application/identity/authenticate-caller';
import { accessGates } from '../../src/interfaces/http/shared/gates';

const cpuMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

async function main() {
  const dataDir = process.env.BENCH_DATA_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-bench-')));
  const config = {
    ...loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir }),
    databaseUrl: process.env.DATABASE_URL,
  };
  const app = await startApplication(config, { jobs: false, logger: pino({ level: 'silent' }) });
  const authenticate = app.container.get(AuthenticateCaller);
  const gates = accessGates({ trustedOrigins: config.trustedOrigins });
  process.on('message', async (message: { type: string; token?: string; n?: number; id: number }) => {
    if (message.type === 'cpu') process.send!({ id: message.id, cpuMicros: cpuMicros() });
    if (message.type === 'auth') {
      const request = {
        method: 'GET',
        path: '/api/auth/get-session',
        viaCookie: false,
        origin: undefined,
        secFetchSite: undefined,
        ownOrigin: () => '',
      };
      await authenticate.execute(message.token);
      const start = cpuMicros();
      for (let i = 0; i < message.n!; i++) {
        const caller = await authenticate.execute(message.token);
        for (const gate of gates) await gate(caller, request);
      }
      process.send!({ id: message.id, cpuMicrosPerCall: (cpuMicros() - start) / message.n! });
    }
    if (message.type === 'stop') {
      await app.stop();
      if (!process.env.BENCH_DATA_DIR) await fs.rm(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  process.send!({ type: 'ready', url: app.url, dataDir });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
