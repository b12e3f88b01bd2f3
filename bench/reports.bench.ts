/**
 * `npm run bench:reports`: a monthly report run for BENCH_CUSTOMERS customers (default 100) with
 * BENCH_MONITORS monitors each (default 50), every customer with monthlyReportsEnabled. Loads a month
 * of results (one location, a check every BENCH_INTERVAL_MINUTES, default 15, ~0.5 % down) and an
 * incident on every tenth monitor straight into the tables, rolls the hours up as the hourly job
 * would (BENCH_ROLLUP=0 skips it: every figure then comes from raw rows), then runs the reports job
 * once on the 1st of the month and reports wall time and CPU (the service's and its embedded
 * PostgreSQL's) per PDF. The service's clock is set to the 1st of the current month, 06:30 UTC, so
 * the run covers the previous month. Runs on an embedded PostgreSQL in a temporary directory.
 */
import 'reflect-metadata';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { RequestContext } from '@mikro-orm/postgresql';
import { loadConfig } from '../src/main/config';
import { startApplication } from '../src/main/application';
import { MaintainResultStorage } from '../src/application/results/maintain-result-storage';
import { RunDueReports } from '../src/application/reports/run-due-reports';
import { postgresCpuMicros } from './support/postgres-cpu';
import { sql } from '../src/infrastructure/persistence/sql';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100);
const MONITORS = Number(process.env.BENCH_MONITORS ?? 50);
const INTERVAL_MINUTES = Number(process.env.BENCH_INTERVAL_MINUTES ?? 15);
const ROLLUP = process.env.BENCH_ROLLUP !== '0';
const DAY = 86_400_000;

const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(1));

async function main() {
  const real = new Date();
  const clockAt = new Date(Date.UTC(real.getUTCFullYear(), real.getUTCMonth(), 1, 6, 30));
  const monthStart = new Date(Date.UTC(clockAt.getUTCFullYear(), clockAt.getUTCMonth() - 1, 1));
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'monitoring-reports-bench-'));
  const config = {
    ...loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir, RESULTS_RETENTION_DAYS: '90' }),
    databaseUrl: undefined,
  };
  const app = await startApplication(config, {
    jobs: false,
    checkWorker: false,
    notificationWorker: false,
    logger: pino({ level: 'silent' }),
    clock: { now: () => new Date(clockAt) },
  });
  const runner = app.database.sql;
  try {
    const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Bench',
        email: `bench-${Date.now()}@bench.example`,
        password: 'bench password',
        organizationName: 'Bench Agency',
      }),
    }).then((r) => r.json() as Promise<{ user: { organizationId: number } }>);
    const organizationId = signUp.user.organizationId;
    const loadStart = performance.now();
    await runner.query(
      sql`INSERT INTO customers (public_id, organization_id, name, email, monthly_reports_enabled, created_at, updated_at)
       SELECT gen_random_uuid(), ${organizationId}, 'Customer ' || g, 'customer' || g || '@bench.example', true, now(), now() FROM generate_series(1, ${CUSTOMERS}) AS g`,
    );
    await runner.query(sql`INSERT INTO check_locations (code) VALUES ('eu-west') ON CONFLICT DO NOTHING`);
    await runner.query(
      sql`INSERT INTO monitors (public_id, organization_id, customer_id, name, check_interval_seconds, locations, created_at)
       SELECT gen_random_uuid(), ${organizationId}, c.id, 'Monitor ' || c.id || '-' || g, ${INTERVAL_MINUTES * 60}, '{eu-west}', ${new Date(monthStart.getTime() - 30 * DAY)}
       FROM customers c CROSS JOIN generate_series(1, ${MONITORS}) AS g WHERE c.organization_id = ${organizationId}`,
    );
    const [range] = await runner.query<{ lo: string; hi: string }>(
      sql`SELECT min(id) AS lo, max(id) AS hi FROM monitors WHERE organization_id = ${organizationId}`,
    );
    for (let day = monthStart.getTime(); day <= clockAt.getTime(); day += DAY) {
      await runner.query(sql`SELECT check_results_ensure_partition(${new Date(day).toISOString().slice(0, 10)}::date)`);
    }
    for (let day = monthStart.getTime(); day < clockAt.getTime(); day += DAY) {
      await runner.query(
        sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status, response_ms, reason_code)
         SELECT m, t + (m % 60) * interval '1 second', l.id, CASE WHEN h < 5 THEN 3 ELSE 1 END,
                CASE WHEN h < 5 THEN NULL ELSE 40 + (random() * random() * 900)::int END, CASE WHEN h < 5 THEN 'timeout' END
         FROM generate_series(${new Date(day)}::timestamptz, ${new Date(Math.min(day + DAY, clockAt.getTime()))}::timestamptz - interval '1 second', ${INTERVAL_MINUTES} * interval '1 minute') AS t
         CROSS JOIN generate_series(${range!.lo}::bigint, ${range!.hi}::bigint) AS m
         CROSS JOIN check_locations l
         CROSS JOIN LATERAL (SELECT (m * 7919 + (extract(epoch FROM t)::bigint / 60) * 104729) % 1000 AS h) AS x
         WHERE l.code = 'eu-west'`,
      );
    }
    await runner.query(
      sql`INSERT INTO incidents (public_id, organization_id, customer_id, monitor_id, origin, status, title, cause_reason_code, cause_message,
         started_at, resolved_at, created_at, updated_at)
       SELECT gen_random_uuid(), organization_id, customer_id, id, 'automatic', 'resolved', name || ' is down', 'timeout', 'no answer within 30 s',
              ${monthStart}::timestamptz + (id % 27) * interval '1 day', ${monthStart}::timestamptz + (id % 27) * interval '1 day' + interval '45 minutes', now(), now()
       FROM monitors WHERE organization_id = ${organizationId} AND id % 10 = 0`,
    );
    await runner.query(sql`VACUUM (ANALYZE) check_results`);
    const [rows] = await runner.query<{ n: string }>(sql`SELECT count(*) AS n FROM check_results`);
    const loadSeconds = seconds(loadStart);

    let rollupSeconds: number | null = null;
    if (ROLLUP) {
      const start = performance.now();
      await RequestContext.create(app.database.orm.em, () => app.container.get(MaintainResultStorage).execute());
      rollupSeconds = seconds(start);
    }

    const cpu0 = process.cpuUsage();
    const pg0 = await postgresCpuMicros(process.pid);
    const wall0 = performance.now();
    const made = await RequestContext.create(app.database.orm.em, () => app.container.get(RunDueReports).execute());
    const wallMs = performance.now() - wall0;
    const cpu = process.cpuUsage(cpu0);
    const pg1 = await postgresCpuMicros(process.pid);
    const runs = await runner.query<{ status: string; n: string }>(sql`SELECT status, count(*) AS n FROM report_runs GROUP BY status`);
    const files = await fs.readdir(path.join(dataDir, 'reports', String(organizationId)));
    const sizes = await Promise.all(files.map(async (f) => (await fs.stat(path.join(dataDir, 'reports', String(organizationId), f))).size));
    const pdfs = made.made;
    console.log(
      JSON.stringify(
        {
          date: new Date().toISOString(),
          data: {
            customers: CUSTOMERS,
            monitorsPerCustomer: MONITORS,
            intervalMinutes: INTERVAL_MINUTES,
            results: Number(rows!.n),
            loadSeconds,
            rollupSeconds,
          },
          period: {
            from: monthStart.toISOString(),
            to: new Date(Date.UTC(clockAt.getUTCFullYear(), clockAt.getUTCMonth(), 1)).toISOString(),
          },
          runs: Object.fromEntries(runs.map((r) => [r.status, Number(r.n)])),
          wallSeconds: Number((wallMs / 1000).toFixed(1)),
          perPdf: {
            wallMs: Math.round(wallMs / pdfs),
            serviceCpuMs: Math.round((cpu.user + cpu.system) / 1000 / pdfs),
            postgresCpuMs: pg0 !== null && pg1 !== null ? Math.round((pg1 - pg0) / 1000 / pdfs) : null,
            averageKB: Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length / 1024),
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
