import { TRANSACTION_RUNNER, type Transaction, type TransactionRunner } from '../../../../src/application/shared/transaction';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { GetCheckHistory } from '../../../../src/application/results/get-check-history';
import { GetUptimeStats } from '../../../../src/application/results/get-uptime-stats';
import { MaintainResultStorage } from '../../../../src/application/results/maintain-result-storage';
import { RESULT_MAINTENANCE, RESULT_STORE, type ResultMaintenance, type StoredResult } from '../../../../src/application/results/ports';
import { checkCountsSql } from '../../../../src/infrastructure/platform-admin/sql-fragments';
import { EXPORT_RESOURCES } from '../../../../src/infrastructure/data-export/zip-export-archive-writer';
import { startApplication, type RunningApplication } from '../../../../src/main/application';
import { anActor } from '../../../support/builders';
import { aFreshDatabase, type FreshDatabase } from '../../../support/fresh-database';
import { aMigrator } from '../../../support/migrator';
import { ManualClock } from '../../../support/manual-clock';
import { testConfig } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const at = (iso: string) => new Date(iso);

/**
 * The same results read as raw rows, then as compact hours (and with old hourly rollups merged into
 * days): check history pages, uptime-stats and the figures reports use, the export's pages and the
 * admin check counts answer exactly alike. A database of its own, on a clock of its own.
 */
describe('Compact result storage answers as raw rows did', () => {
  let fresh: FreshDatabase;
  let app: RunningApplication;
  const clock = new ManualClock('2026-06-12T12:00:00Z');
  let organizationId = 0;
  let monitorId = 0;
  let publicId = '';

  before(async function () {
    this.timeout(120_000);
    fresh = await aFreshDatabase('compact_storage');
    app = await startApplication(
      { ...testConfig(), databaseUrl: fresh.url },
      { clock, jobs: false, checkWorker: false, notificationWorker: false, logger: pino({ level: 'silent' }) },
    );
    const runner = app.database.sql;
    const [org] = await runner.query<{ id: number }>(
      sql`INSERT INTO organizations (public_id, name, created_at, updated_at) VALUES (gen_random_uuid(), 'Compact', now(), now()) RETURNING id`,
    );
    organizationId = Number(org!.id);
    const [customer] = await runner.query<{ id: number }>(
      sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (gen_random_uuid(), ${organizationId}, 'C', now(), now()) RETURNING id`,
    );
    publicId = randomUUID();
    const [monitor] = await runner.query<{ id: string }>(
      sql`INSERT INTO monitors (public_id, organization_id, customer_id, name, check_interval_seconds, locations, created_at)
       VALUES (${publicId}, ${organizationId}, ${customer!.id}, 'Shop', 60, '{eu,us}', ${at('2026-06-01T00:00:00Z')}) RETURNING id`,
    );
    monitorId = Number(monitor!.id);
    await append(results(monitorId));
  });
  after(async () => {
    await app?.stop();
    await fresh?.drop();
  });

  const append = (rows: StoredResult[]) =>
    app.container
      .get<TransactionRunner>(TRANSACTION_RUNNER)
      .run((tx) => app.container.get<{ appendMany(r: StoredResult[], tx: Transaction): Promise<void> }>(RESULT_STORE).appendMany(rows, tx));
  const maintain = () => app.container.get(MaintainResultStorage).execute();
  const actor = () => anActor().withRole('readonly').inOrganization(organizationId).build();

  const readings = () => read();

  async function read() {
    const history = async (location?: string) => {
      const items: unknown[] = [];
      for (let page = 1; ; page += 1) {
        const got = await app.container
          .get(GetCheckHistory)
          .execute(actor(), { websiteId: publicId, from: '2026-06-09T00:00:00Z', to: '2026-06-12T12:00:00Z', location, page, perPage: 97 });
        items.push(...got.items);
        if (got.items.length < 97) return { total: got.total, items };
      }
    };
    const uptime = (from: string, to: string) => app.container.get(GetUptimeStats).execute(actor(), { websiteId: publicId, from, to });
    const exportRows: unknown[] = [];
    const resource = EXPORT_RESOURCES.find((r) => r.name === 'check-results')!;
    let after: unknown = null;
    do {
      const page = await resource.page(app.database.sql, organizationId, after, 113);
      exportRows.push(...page.rows);
      after = page.next;
    } while (after !== null);
    const rolled = await app.container.get<ResultMaintenance>(RESULT_MAINTENANCE).rolledUp();
    const counts = checkCountsSql(at('2026-06-09T10:20:00Z'), rolled?.to ?? null, organizationId);
    return {
      all: await history(),
      us: await history('us'),
      dayAligned: await uptime('2026-06-09T00:00:00Z', '2026-06-12T00:00:00Z'),
      partialDays: await uptime('2026-06-09T10:20:00Z', '2026-06-12T10:40:00Z'),
      withinADay: await uptime('2026-06-10T03:00:00Z', '2026-06-10T05:30:00Z'),
      exportRows,
      exportCount: await resource.count(app.database.sql, organizationId),
      adminCount: await app.database.sql.query(counts),
    };
  }

  it('packs closed days into compact hours, and every reader answers exactly as before', async function () {
    this.timeout(300_000);
    const maintenance = app.container.get<ResultMaintenance>(RESULT_MAINTENANCE);
    // Hourly rollups first (the raw form with its rollups is the reference).
    const first = at('2026-06-08T00:00:00Z').getTime();
    for (let hour = first; hour < at('2026-06-12T11:00:00Z').getTime(); hour += HOUR) {
      await maintenance.rollUpHour(new Date(hour), hour === first);
    }
    const raw = await readings();
    expect(raw.all.total).to.equal(results(monitorId).length);
    expect(raw.partialDays.checks.down).to.be.greaterThan(0);

    const report = await maintain();
    expect(report.daysCompacted).to.equal(3);
    expect(report.resultsCompacted).to.equal(results(monitorId).filter((r) => r.checkedAt < at('2026-06-12T00:00:00Z')).length);
    expect((await maintenance.partitionDays()).map((d) => d.toISOString().slice(0, 10))).to.not.include.members([
      '2026-06-09',
      '2026-06-10',
      '2026-06-11',
    ]);
    const [packed] = await app.database.sql.query<{ rows: string; details: string }>(
      sql`SELECT count(*) AS rows, count(details) AS details FROM check_result_hours WHERE monitor_id = ${monitorId}`,
    );
    // One compact row per day and location (3 days, 2 locations).
    expect(Number(packed!.rows)).to.equal(3 * 2);
    expect(Number(packed!.details)).to.be.greaterThan(0);
    // Every detail saw the same evidence: stored once, referenced from each packed detail.
    const [evidence] = await app.database.sql.query<{ n: string; refs: string }>(
      sql`SELECT (SELECT count(*) FROM check_result_evidence) AS n,
              (SELECT count(*) FROM check_result_hours h, jsonb_each(h.details) d WHERE d.value -> '$e' IS NOT NULL) AS refs`,
    );
    expect(Number(evidence!.n)).to.equal(1);
    expect(Number(evidence!.refs)).to.be.greaterThan(50);
    expect(await readings()).to.deep.equal(raw);
    expect((await maintain()).daysCompacted, 'a second run finds nothing to pack').to.equal(0);
  });

  it('merges a late result into its packed hour', async function () {
    this.timeout(120_000);
    const before = await readings();
    const late: StoredResult = {
      monitorId,
      location: 'eu',
      status: 'down',
      responseTimeMs: null,
      reasonCode: 'connectionRefused',
      detail: { message: 'late', timings: { dnsMs: 1, connectMs: null, tlsMs: null, firstByteMs: null, totalMs: 3 }, evidence: {} },
      checkedAt: at('2026-06-10T07:30:30.250Z'),
    };
    await append([late]);
    const withLate = await readings();
    expect(withLate.all.total).to.equal(before.all.total + 1);
    expect((await maintain()).daysCompacted).to.equal(1);
    expect(await readings()).to.deep.equal(withLate);
    // Evidence seen once in its day stays in its row's details; the evidence every sample saw stays shared.
    const [kept] = await app.database.sql.query<{ shared: string; inline: string }>(
      sql`SELECT (SELECT count(*) FROM check_result_evidence) AS shared,
              (SELECT count(*) FROM check_result_hours h, jsonb_each(h.details) d WHERE d.value ? 'evidence') AS inline`,
    );
    expect(Number(kept!.shared)).to.equal(1);
    expect(Number(kept!.inline)).to.equal(1);
  });

  it('merges hourly rollups older than the configured age into days; whole days answer as the hours did', async function () {
    this.timeout(300_000);
    const before = await readings();
    clock.set('2026-06-21T12:00:00Z');
    const report = await maintain();
    expect(report.rollupDaysMerged).to.equal(5);
    const [days] = await app.database.sql.query<{ n: string }>(
      sql`SELECT count(*) AS n FROM check_result_rollups WHERE monitor_id = ${monitorId} AND hour < '2026-06-13' AND extract(hour FROM hour AT TIME ZONE 'UTC') <> 0`,
    );
    expect(Number(days!.n), 'no hourly row left before the daily age').to.equal(0);
    const after = await readings();
    expect(after.dayAligned).to.deep.equal(before.dayAligned);
    expect(after.all).to.deep.equal(before.all);
    expect(after.exportRows).to.deep.equal(before.exportRows);
    // Partial days at both ends now come from the results (kept 30 days), whole days from daily rows.
    expect(after.partialDays).to.deep.equal(before.partialDays);
    expect(after.withinADay).to.deep.equal(before.withinADay);
  });

  it('carries the former forms forward (compact hours, JSON histograms, 32-byte digests): every reader answers alike', async function () {
    this.timeout(300_000);
    const before = await readings();
    const runner = app.database.sql;
    const { migrator, close } = await aMigrator(fresh.url);
    try {
      await migrator.down({ to: 'Migration20270214090000CompactResultDays' });
      // The down migration brings back the JSON histograms and full digests; the compact rows are cut
      // back into hours here, as the former packing left them.
      await runner.query(sql`CREATE TABLE split_results AS
      SELECT h.monitor_id, h.location_id, date_bin('1 hour', h.hour + o.off * interval '1 millisecond', timestamptz 'epoch') AS hour,
             h.hour + o.off * interval '1 millisecond' AS checked_at, o.st, o.ms, o.rs, h.details -> o.i::text AS detail
      FROM check_result_hours h, unnest(h.offsets_ms, h.statuses, h.response_ms, h.reasons) WITH ORDINALITY AS o(off, st, ms, rs, i)`);
      await runner.query(sql`TRUNCATE check_result_hours`);
      await runner.query(sql`INSERT INTO check_result_hours (monitor_id, hour, location_id, offsets_ms, statuses, response_ms, reasons, details)
      SELECT monitor_id, hour, location_id, array_agg(round(EXTRACT(EPOCH FROM checked_at - hour) * 1000)::integer ORDER BY i),
             array_agg(st ORDER BY i), array_agg(ms ORDER BY i), array_agg(rs ORDER BY i),
             jsonb_object_agg(i, detail) FILTER (WHERE detail IS NOT NULL)
      FROM (SELECT s.*, row_number() OVER (PARTITION BY monitor_id, hour, location_id ORDER BY checked_at) AS i FROM split_results s) n
      GROUP BY monitor_id, hour, location_id`);
      await runner.query(sql`DROP TABLE split_results`);
      const [former] = await runner.query<{ rows: string; digest: number; histogram: string }>(
        sql`SELECT (SELECT count(*) FROM check_result_hours) AS rows, (SELECT max(length(digest)) FROM check_result_evidence) AS digest,
              (SELECT pg_typeof(histogram)::text FROM check_result_rollups LIMIT 1) AS histogram`,
      );
      expect(Number(former!.rows)).to.be.greaterThan(100);
      expect([former!.digest, former!.histogram]).to.deep.equal([32, 'jsonb']);

      await migrator.up();
    } finally {
      await close();
    }
    const [carried] = await runner.query<{ rows: string; digest: number }>(
      sql`SELECT (SELECT count(*) FROM check_result_hours) AS rows, (SELECT max(length(digest)) FROM check_result_evidence) AS digest`,
    );
    // Four packed days (the last one packed once the clock moved on), two locations.
    expect([Number(carried!.rows), carried!.digest]).to.deep.equal([4 * 2, 16]);
    expect(await readings()).to.deep.equal(before);
  });
});

/** Three and a half days of results at two locations, with failures, reason codes, details and millisecond times. */
function results(monitorId: number): StoredResult[] {
  const out: StoredResult[] = [];
  const start = at('2026-06-09T00:00:00Z').getTime();
  const end = at('2026-06-12T11:00:00Z').getTime();
  for (let k = 0; start + k * MINUTE < end; k += 1) {
    const down = k >= 300 && k < 330;
    const degraded = k >= 1000 && k < 1010;
    out.push({
      monitorId,
      location: 'eu',
      status: down ? 'down' : degraded ? 'degraded' : 'up',
      responseTimeMs: down ? null : 40 + ((k * 37) % 900),
      reasonCode: down ? 'timeout' : degraded ? 'slow' : null,
      detail:
        down || k % 60 === 7
          ? {
              message: down ? 'timed out' : null,
              timings: { dnsMs: 2, connectMs: 5, tlsMs: null, firstByteMs: 30, totalMs: 41 },
              evidence: { httpStatus: 200 },
            }
          : null,
      checkedAt: new Date(start + k * MINUTE + ((k * 137) % 1000)),
    });
    // us every 5 minutes, silent 06:00-09:00 on 2026-06-10.
    const t = start + k * MINUTE;
    const silent = t >= at('2026-06-10T06:00:00Z').getTime() && t < at('2026-06-10T09:00:00Z').getTime();
    if (k % 5 === 0 && !silent) {
      const usDown = k % 400 === 0;
      out.push({
        monitorId,
        location: 'us',
        status: usDown ? 'down' : 'up',
        responseTimeMs: usDown ? null : 120 + (k % 50),
        reasonCode: usDown ? 'httpStatus' : null,
        detail: null,
        checkedAt: new Date(t + 2_500),
      });
    }
  }
  void DAY;
  return out;
}
