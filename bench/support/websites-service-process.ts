/**
 * The service under `npm run bench:api`, in its own process: the real application, and beside it a
 * bare Express route serving a 50-item page from memory (the baseline). IPC requests:
 *   {type: 'cpu'}                                  -> {cpuMicros} of this process
 *   {type: 'pgcpu'}                                -> {cpuMicros} of the embedded PostgreSQL (null if remote)
 *   {type: 'seed', organizationId, customerIds, count} -> inserts `count` websites (and tags) in SQL
 *   {type: 'baseline', body}                       -> {url} of the bare route serving `body`
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { loadConfig } from '../../src/main/config';
import { startApplication } from '../../src/main/application';
import { postgresCpuMicros } from './postgres-cpu';
import { REFRESH_DOCUMENTS } from '../../src/infrastructure/monitoring/website-document';

const cpuMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

const WEBSITE_CONFIG = JSON.stringify({
  method: 'GET', headers: { 'user-agent': 'monitor' }, body: null, expectedStatusCodes: [200], keyword: 'ok', keywordMode: 'present',
  keywordCaseSensitive: false, responseTimeThreshold: 2000, followRedirects: true, script: null, checkSslEnabled: true,
  checkHttpsRedirectEnabled: true, checkStatusEnabled: true, checkSizeEnabled: false, checkResponseTimeEnabled: true,
  checkKeywordEnabled: true, checkDomainExpiryEnabled: false, minPageSize: null, maxPageSize: null, sslNoticeDays: 14,
});

async function main() {
  const dataDir = process.env.BENCH_DATA_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-bench-')));
  const config = { ...loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir }), databaseUrl: process.env.DATABASE_URL };
  const app = await startApplication(config, { jobs: false, logger: pino({ level: 'silent' }) });
  const sql = app.database.sql;
  let baseline: import('node:http').Server | undefined;
  process.on('message', async (message: { type: string; id: number; [key: string]: any }) => {
    const reply = (body: Record<string, unknown>) => process.send!({ id: message.id, ...body });
    if (message.type === 'cpu') reply({ cpuMicros: cpuMicros() });
    if (message.type === 'pgcpu') reply({ cpuMicros: config.databaseUrl ? null : postgresCpuMicros(path.join(dataDir, 'postgres')) });
    if (message.type === 'seed') {
      const { organizationId, customerIds, count } = message as unknown as { organizationId: number; customerIds: number[]; count: number };
      await sql.query(
        `INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, status, management_type,
           check_interval, timeout_seconds, locations, url, config, alert_consecutive_checks, alert_location_threshold,
           alert_location_threshold_count, alert_reminder_interval, created_at, updated_at)
         SELECT gen_random_uuid(), ?, (?::int[])[1 + g % cardinality(?::int[])], 'website', 'http', 'Website ' || g,
           CASE WHEN g % 10 = 0 THEN 'paused' ELSE 'active' END, CASE WHEN g % 7 = 0 THEN 'self_service' ELSE 'managed' END,
           5, 30, ARRAY['eu-central', 'us-east', 'ap-southeast'], 'https://site-' || g || '.example.com/health', ?::jsonb,
           2, 0.50, 1, 60, now(), now()
         FROM generate_series(1, ?) g`,
        [organizationId, customerIds, customerIds, WEBSITE_CONFIG, count],
      );
      await sql.query(
        `INSERT INTO tags (public_id, organization_id, customer_id, name, color, created_at, updated_at)
         SELECT gen_random_uuid(), ?, c, t, '#3B82F6', now(), now() FROM unnest(?::int[]) c, unnest(ARRAY['production', 'eu', 'critical']) t`,
        [organizationId, customerIds],
      );
      await sql.query(
        `INSERT INTO monitor_tags (monitor_id, tag_id)
         SELECT m.id, t.id FROM monitors m JOIN tags t ON t.customer_id = m.customer_id
         WHERE m.organization_id = ? AND (m.id % 3 = 0 OR t.name = 'production')`,
        [organizationId],
      );
      // As if created through the API: every website's stored document rendered.
      const ids = await sql.query<{ id: number }>('SELECT id FROM monitors WHERE organization_id = ?', [organizationId]);
      await sql.query(REFRESH_DOCUMENTS, [ids.map((r) => r.id).join(',')]);
      await sql.query('VACUUM ANALYZE monitors');
      await sql.query('VACUUM ANALYZE monitor_tags');
      await sql.query('VACUUM ANALYZE tags');
      reply({ seeded: count });
    }
    if (message.type === 'baseline') {
      const body = message.body as unknown;
      const bare = express();
      bare.get('/bare', (_req, res) => {
        res.json(body);
      });
      baseline = bare.listen(0, '127.0.0.1', () => reply({ url: `http://127.0.0.1:${(baseline!.address() as AddressInfo).port}/bare` }));
    }
    if (message.type === 'stop') {
      baseline?.close();
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
