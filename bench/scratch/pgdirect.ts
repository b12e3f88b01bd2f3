import 'reflect-metadata';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../../src/main/config';
import { startApplication } from '../../src/main/application';

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'scratch-'));
  const app = await startApplication({ ...loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir }), databaseUrl: undefined }, { jobs: false, logger: pino({ level: 'silent' }) });
  const url = app.database.orm.config.get('clientUrl')!;
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const sql = `SELECT id, name, created_at FROM organizations WHERE id > $1 LIMIT 50`;
  const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; };
  const loop = async (label: string, fn: () => Promise<unknown>) => {
    for (let i = 0; i < 200; i++) await fn();
    const a = cpu(); const t = Date.now();
    for (let i = 0; i < 2000; i++) await fn();
    console.log(label.padEnd(30), 'µs cpu', Math.round((cpu() - a) / 2000), 'wall', ((Date.now() - t) / 2000).toFixed(3));
  };
  await loop('mikro-orm sql runner', () => app.database.sql.query(sql.replace('$1', '?'), [0]));
  await loop('pg pool unnamed', () => pool.query(sql, [0]));
  await loop('pg pool named', () => pool.query({ name: 'q1', text: sql, values: [0] }));
  const client = await pool.connect();
  await loop('pg client (held)', () => client.query(sql, [0]));
  client.release();
  await pool.end();
  await app.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
}
main();
