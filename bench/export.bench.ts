/**
 * `npm run bench:export`: an organization's data export at scale. Loads BENCH_MONITORS monitors
 * (default 10,000) with BENCH_RESULTS check results each (default 100: one million rows) straight
 * into PostgreSQL, then writes the export archive with the service's own writer and reports the
 * wall time, rows per second, the process's peak RSS during the export (sampled every 20 ms), the
 * archive's size, and the ratio of the export's time to a bare baseline measured in the same run:
 * the same rows read with the same keyset pages and written as JSON Lines to a plain file (no zip,
 * no progress). BENCH_PAGE sets the rows per page (default the writer's). Runs on an embedded PostgreSQL in a temporary directory, or on DATABASE_URL.
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../src/main/config';
import { startApplication, type RunningApplication } from '../src/main/application';
import { EXPORT_RESOURCES, ZipExportArchiveWriter } from '../src/infrastructure/data-export/zip-export-archive-writer';
import { sql } from '../src/infrastructure/persistence/sql';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const RESULTS = Number(process.env.BENCH_RESULTS ?? 100);
const PAGE = process.env.BENCH_PAGE === undefined ? undefined : Number(process.env.BENCH_PAGE);
const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(2));

async function load(app: RunningApplication, organizationId: number, customerId: number): Promise<number> {
  const runner = app.database.sql;
  await runner.query(sql`INSERT INTO check_locations (code) VALUES ('local') ON CONFLICT DO NOTHING`);
  await runner.query(
    sql`INSERT INTO monitors (public_id, organization_id, customer_id, name, check_interval_seconds, locations, created_at)
     SELECT gen_random_uuid(), ${organizationId}, ${customerId}, 'bench ' || g, 60, '{local}', now() FROM generate_series(1, ${MONITORS}) AS g`,
  );
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const start = now - RESULTS * 60_000;
  for (let day = new Date(start); day.getTime() <= now; day = new Date(day.getTime() + 86_400_000)) {
    await runner.query(sql`SELECT check_results_ensure_partition(${day.toISOString().slice(0, 10)}::date)`);
  }
  await runner.query(sql`SELECT check_results_ensure_partition(${new Date(now).toISOString().slice(0, 10)}::date)`);
  await runner.query(
    sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status, response_ms, reason_code)
     SELECT m.id, ${new Date(start)}::timestamptz + g * interval '1 minute', (SELECT id FROM check_locations WHERE code = 'local'),
            CASE WHEN (m.id + g) % 97 = 0 THEN 3 ELSE 1 END, 40 + ((m.id * 31 + g * 17) % 400), NULL
       FROM monitors m CROSS JOIN generate_series(0, ${RESULTS} - 1) AS g WHERE m.organization_id = ${organizationId}`,
  );
  await runner.query(sql`VACUUM (ANALYZE) check_results`);
  const [count] = await runner.query<{ n: string }>(
    sql`SELECT count(*) AS n FROM check_results r JOIN monitors m ON m.id = r.monitor_id WHERE m.organization_id = ${organizationId}`,
  );
  return Number(count!.n);
}

/** The baseline: the check results read with the export's own pages, written as JSON Lines to a plain file (no zip). */
async function bare(app: RunningApplication, organizationId: number, file: string): Promise<number> {
  const resource = EXPORT_RESOURCES.find((r) => r.name === 'check-results')!;
  const out = createWriteStream(file);
  let rows = 0;
  let after: unknown = null;
  do {
    const page = await resource.page(app.database.sql, organizationId, after, 5_000);
    rows += page.rows.length;
    if (!out.write(page.rows.map((r) => `${JSON.stringify(r)}\n`).join('')))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    after = page.next;
  } while (after !== null);
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return rows;
}

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-export-bench-'));
  const config = {
    ...loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir }),
    databaseUrl: process.env.DATABASE_URL,
  };
  const app = await startApplication(config, {
    jobs: false,
    checkWorker: false,
    notificationWorker: false,
    logger: pino({ level: 'silent' }),
  });
  try {
    const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench',
        email: `bench-${Date.now()}@bench.example`,
        password: 'bench password',
        organizationName: 'Bench',
      }),
    }).then((r) => r.json() as Promise<{ user: { organizationId: number } }>);
    const organizationId = signUp.user.organizationId;
    const [customer] = await app.database.sql.query<{ id: number }>(
      sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (${randomUUID()}, ${organizationId}, 'Bench', now(), now()) RETURNING id`,
    );
    const loadStart = performance.now();
    const results = await load(app, organizationId, customer!.id);
    const loadSeconds = seconds(loadStart);

    global.gc?.();
    const bareStart = performance.now();
    const bareRows = await bare(app, organizationId, path.join(dataDir, 'bare.jsonl'));
    const bareSeconds = seconds(bareStart);

    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const heapBefore = process.memoryUsage().heapUsed;
    let rssPeak = rssBefore;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => {
      const use = process.memoryUsage();
      rssPeak = Math.max(rssPeak, use.rss);
      heapPeak = Math.max(heapPeak, use.heapUsed);
    }, 20);
    let progressCalls = 0;
    const exportStart = performance.now();
    const archive = path.join(dataDir, 'exports', 'bench.zip');
    const { bytes } = await new ZipExportArchiveWriter(app.database.sql, EXPORT_RESOURCES, PAGE).write(
      organizationId,
      archive,
      async () => {
        progressCalls += 1;
      },
    );
    const exportSeconds = seconds(exportStart);
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);

    console.log(
      JSON.stringify(
        {
          date: new Date().toISOString(),
          data: { monitors: MONITORS, checkResults: results, loadSeconds },
          bare: { rows: bareRows, seconds: bareSeconds, rowsPerSecond: Math.round(bareRows / bareSeconds) },
          export: {
            seconds: exportSeconds,
            rowsPerSecond: Math.round((results + MONITORS) / exportSeconds),
            archiveMB: Number((bytes / 1e6).toFixed(1)),
            progressUpdates: progressCalls,
            ratioToBare: Number((exportSeconds / bareSeconds).toFixed(2)),
          },
          memory: {
            rssBeforeMB: Math.round(rssBefore / 1e6),
            rssPeakMB: Math.round(rssPeak / 1e6),
            rssGrowthMB: Math.round((rssPeak - rssBefore) / 1e6),
            heapUsedPeakGrowthMB: Math.round((heapPeak - heapBefore) / 1e6),
            goalPeakMB: 200,
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await app.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
