import { randomUUID } from 'node:crypto';
import { RequestContext } from '@mikro-orm/postgresql';
import type { RunningApplication } from '../../src/main/application';
import { GetUptimeStats } from '../../src/application/results/get-uptime-stats';
import type { MonitorRef } from '../../src/application/results/ports';
import { ObjectiveMeter } from '../../src/application/service-levels/objective-meter';
import { ServiceLevelObjective } from '../../src/domain/service-levels/objective';
import { sql } from '../../src/infrastructure/persistence/sql';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface ObjectivesFigures {
  monitors: number;
  days: number;
  rollupRows: number;
  rawRows: number;
  loadSeconds: number;
  /** GetUptimeStats over the window, once per monitor, one after another (the uptime-stats call's work). */
  uptimeStatsMs: number;
  /** One objective covering every monitor: attainment, budget and the four burn windows. */
  objectiveMs: number;
  ratio: number;
  attainmentPercent: number | null;
  /** The same from the uptime figures of every monitor (up + degraded over known, summed): they must agree. */
  attainmentFromUptimePercent: number | null;
}

const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(1));

/**
 * `monitors` monitors of one customer (one location, checked every minute) with `days` days of
 * history as the results context keeps it after its upkeep: hourly rollups for every closed hour
 * (about 0.5 % down and 1 % degraded, spread pseudo-randomly), raw results for the hour still open.
 * Then times the uptime figures of every monitor against one objective over all of them, in the
 * same run on the same rows. The rollup progress is widened to the loaded hours.
 */
export async function benchObjectives(app: RunningApplication, organizationId: number, monitors: number, days: number, now: number) {
  const runner = app.database.sql;
  const began = performance.now();
  await runner.query(sql`INSERT INTO check_locations (code) VALUES ('slo-bench') ON CONFLICT DO NOTHING`);
  const [location] = await runner.query<{ id: number }>(sql`SELECT id FROM check_locations WHERE code = 'slo-bench'`);
  const [customer] = await runner.query<{ id: number }>(
    sql`INSERT INTO customers (public_id, organization_id, name, created_at, updated_at) VALUES (${randomUUID()}, ${organizationId}, 'SLO bench', now(), now()) RETURNING id`,
  );
  const created = new Date(now - (days + 1) * DAY);
  await runner.query(
    sql`INSERT INTO monitors (public_id, organization_id, customer_id, name, check_interval_seconds, locations, created_at)
     SELECT gen_random_uuid(), ${organizationId}, ${customer!.id}, 'slo ' || g, 60, '{slo-bench}'::text[], ${created} FROM generate_series(1, ${monitors}) AS g`,
  );
  const [range] = await runner.query<{ lo: string; hi: string }>(
    sql`SELECT min(id) AS lo, max(id) AS hi FROM monitors WHERE customer_id = ${customer!.id}`,
  );
  const openHour = Math.floor(now / HOUR) * HOUR;
  const first = openHour - days * DAY;
  for (let day = first; day < openHour; day += DAY) {
    const end = Math.min(openHour, day + DAY);
    await runner.query(
      sql`INSERT INTO check_result_rollups (monitor_id, hour, location_id, up_seconds, degraded_seconds, down_seconds, up_count, degraded_count,
           down_count, response_ms_sum, response_count, histogram, last_at, last_status)
       -- the histogram: two buckets packed as the upkeep packs them (4 bytes a bucket: bucket << 24 | count)
       SELECT m, h, ${location!.id}, 3600 - d - g, g, d, 60 - d / 60 - g / 60, g / 60, d / 60, 200 * (60 - d / 60), 60 - d / 60,
              int4send((10 * 16777216 + 40)::integer) || int4send((12 * 16777216 + 20)::integer), h + interval '59 minutes', 1
       FROM generate_series(${new Date(day)}::timestamptz, ${new Date(end)}::timestamptz - interval '1 hour', interval '1 hour') AS h
       CROSS JOIN generate_series(${range!.lo}::bigint, ${range!.hi}::bigint) AS m
       CROSS JOIN LATERAL (SELECT (m * 7919 + extract(epoch FROM h)::bigint / 3600 * 104729) % 200 AS x) AS r
       CROSS JOIN LATERAL (SELECT CASE WHEN x = 0 THEN 1200 ELSE 0 END AS d, CASE WHEN x < 3 THEN 60 ELSE 0 END AS g) AS s`,
    );
  }
  const openMinutes = Math.floor((now - openHour) / 60_000);
  if (openMinutes > 0) {
    await runner.query(sql`SELECT check_results_ensure_partition(${new Date(openHour).toISOString().slice(0, 10)}::date)`);
    await runner.query(
      sql`INSERT INTO check_results (monitor_id, checked_at, location_id, status, response_ms)
       SELECT m, t, ${location!.id}, CASE WHEN (m + extract(minute FROM t)::int) % 97 = 0 THEN 3 ELSE 1 END, 180
       FROM generate_series(${new Date(openHour)}::timestamptz, ${new Date(openHour + (openMinutes - 1) * 60_000)}::timestamptz, interval '1 minute') AS t
       CROSS JOIN generate_series(${range!.lo}::bigint, ${range!.hi}::bigint) AS m`,
    );
  }
  await runner.query(
    sql`INSERT INTO check_rollup_progress (id, rolled_from, rolled_to) VALUES (1, ${new Date(first)}, ${new Date(openHour)})
     ON CONFLICT (id) DO UPDATE SET rolled_from = LEAST(check_rollup_progress.rolled_from, EXCLUDED.rolled_from),
       rolled_to = GREATEST(check_rollup_progress.rolled_to, EXCLUDED.rolled_to)`,
  );
  await runner.query(sql`VACUUM (ANALYZE) check_result_rollups`);
  const loadSeconds = seconds(began);

  const refs: MonitorRef[] = (
    await runner.query<{ id: string; public_id: string }>(
      sql`SELECT id, public_id FROM monitors WHERE customer_id = ${customer!.id} ORDER BY id`,
    )
  ).map((row) => ({
    monitorId: Number(row.id),
    publicId: row.public_id,
    organizationId,
    customerId: customer!.id,
    name: 'slo',
    checkIntervalSeconds: 60,
    locations: ['slo-bench'],
    createdAt: created,
  }));
  const at = new Date(now);
  const window = { from: new Date(now - 30 * DAY), to: at };
  const inContext = <T>(work: () => Promise<T>) => RequestContext.create(app.database.orm.em, work);

  const uptimeStart = performance.now();
  let good = 0;
  let bad = 0;
  await inContext(async () => {
    const uptime = app.container.get(GetUptimeStats);
    for (const monitor of refs) {
      const { figures } = await uptime.figuresFor(monitor, window, at);
      good += figures.upSeconds + figures.degradedSeconds;
      bad += figures.downSeconds;
    }
  });
  const uptimeStatsMs = performance.now() - uptimeStart;

  const objective = ServiceLevelObjective.create(
    {
      publicId: randomUUID(),
      organizationId,
      customerId: customer!.id,
      name: 'All',
      target: 99.9,
      window: 'rolling30d',
      timezone: 'UTC',
      subject: { type: 'customer', customerId: customer!.id, tagId: null },
      alertsEnabled: true,
    },
    at,
  );
  const objectiveStart = performance.now();
  const status = await inContext(() => app.container.get(ObjectiveMeter).statusOf(objective, refs, at, { withWindow: true }));
  const objectiveMs = performance.now() - objectiveStart;
  const [counts] = await runner.query<{ rollups: string; raw: string }>(
    sql`SELECT (SELECT count(*) FROM check_result_rollups WHERE monitor_id BETWEEN ${range!.lo}::bigint AND ${range!.hi}::bigint) AS rollups,
               (SELECT count(*) FROM check_results WHERE monitor_id BETWEEN ${range!.lo}::bigint AND ${range!.hi}::bigint) AS raw`,
  );
  const figures: ObjectivesFigures = {
    monitors,
    days,
    rollupRows: Number(counts!.rollups),
    rawRows: Number(counts!.raw),
    loadSeconds,
    uptimeStatsMs: Math.round(uptimeStatsMs),
    objectiveMs: Math.round(objectiveMs),
    ratio: Number((objectiveMs / uptimeStatsMs).toFixed(3)),
    attainmentPercent: status.level.attainmentPercent,
    attainmentFromUptimePercent: good + bad > 0 ? Number(((good / (good + bad)) * 100).toFixed(4)) : null,
  };
  return figures;
}
