import { expect } from 'chai';
import type { SqlRunner } from '../../../../src/infrastructure/persistence/database';
import { PgCheckSchedule } from '../../../../src/infrastructure/scheduling/pg-check-schedule';
import type { ClaimedCheck } from '../../../../src/application/scheduling/ports';
import { testServer } from '../../../support/test-server';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { standalone } from '../../../support/unit-of-work';
import { explaining } from '../../../support/explaining-sql';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const ROWS = 20_000;
const LOCATION = `plan-${Date.now() % 100_000}`;

/**
 * The statements a worker runs against the schedule for a handful of monitors (re-reading the rows
 * a change names, handing rows back) must reach them through the primary key, not by reading the
 * whole table: at 100,000 monitors a sequential scan per claim round would cost more than the checks.
 */
describe('check schedule statements at 20,000 rows (plans)', () => {
  let runner: SqlRunner;
  let ids: number[];
  let rows: ClaimedCheck[];

  before(async function () {
    this.timeout(60_000);
    runner = (await testServer()).database.sql;
    const org = await anOrganization('plans');
    const customerId = await aCustomerRow(org.user.organizationId);
    // One statement for all of them; the schedule's rows follow from the monitors (one per location).
    const created = await runner.query<{ id: string }>(
      sql`INSERT INTO monitors (public_id, organization_id, customer_id, name, check_interval_seconds, locations,
         alert_consecutive_checks, alert_location_threshold, alert_location_threshold_count, alert_reminder_interval, created_at)
       SELECT gen_random_uuid(), ${org.user.organizationId}, ${customerId}, 'Plan ' || i, 60, ${`{${LOCATION}}`}::text[], 2, 0.5, 1, 60, now() FROM generate_series(1, ${ROWS}) AS i
       RETURNING id`,
    );
    const all = created.map((row) => Number(row.id)).sort((a, b) => a - b);
    await runner.query(sql`UPDATE check_schedule SET leased_by = 'plan-worker' WHERE location = ${LOCATION}`);
    await runner.query(sql`ANALYZE check_schedule`);
    ids = [all[17]!, all[4_242]!, all[19_999]!];
    rows = ids.map((monitorId) => ({ monitorId, location: LOCATION, slot: new Date(), intervalMs: 60_000, phaseMs: 0 }));
  });
  after(async () => {
    await runner.query(sql`DELETE FROM monitors WHERE id IN (SELECT monitor_id FROM check_schedule WHERE location = ${LOCATION})`);
  });

  /** The plans of what `run` asks the schedule to do, explained instead of run. */
  async function plansOf(run: (schedule: PgCheckSchedule) => Promise<unknown>): Promise<string[]> {
    const plans: string[] = [];
    await run(new PgCheckSchedule(standalone(explaining(runner, plans))));
    return plans;
  }

  it('re-reads the rows of the monitors a change names through the primary key', async () => {
    const [plan] = await plansOf((schedule) => schedule.held('plan-worker', ids));
    expect(plan).to.include('check_schedule_pkey').and.not.include('"Seq Scan"');
  });

  it('hands rows back through the primary key', async () => {
    const [plan] = await plansOf((schedule) => schedule.release('plan-worker', rows));
    expect(plan).to.include('check_schedule_pkey').and.not.include('"Seq Scan"');
  });

  it('does what the plans are for: reads and hands back exactly the rows named', async () => {
    const schedule = new PgCheckSchedule(standalone(runner));
    expect((await schedule.held('plan-worker', ids)).map((c) => c.monitorId).sort((a, b) => a - b)).to.deep.equal(ids);
    await schedule.release('plan-worker', rows);
    expect(await schedule.held('plan-worker', ids)).to.deep.equal([]);
    const [{ held }] = await runner.query<{ held: string }>(
      sql`SELECT count(*) AS held FROM check_schedule WHERE location = ${LOCATION} AND leased_by = 'plan-worker'`,
    );
    expect(Number(held)).to.equal(ROWS - ids.length);
  });
});
