import { expect } from 'chai';
import { type MikroORM } from '@mikro-orm/postgresql';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, type MonitorRow } from '../../../support/results-fixtures';
import { testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import { AlertActions } from '../../../../src/application/incidents/alert-actions';
import { RecordCheckResult, type RecordCheckResultInput } from '../../../../src/application/incidents/record-check-result';
import { INCIDENT_ROUTING } from '../../../../src/application/incidents/ports';
import { MaintenanceSuppression } from '../../../../src/application/maintenance/maintenance-suppression';
import { RECURRENCE_EXPANDER } from '../../../../src/application/maintenance/ports';
import { CLOCK } from '../../../../src/application/shared/clock';
import { ID_GENERATOR } from '../../../../src/application/shared/id-generator';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';
import type { SqlRunner, UnitOfWorkSql } from '../../../../src/infrastructure/persistence/database';
import { OrmPoolSql } from '../../../../src/infrastructure/persistence/orm-sql';
import { SqlIncidentRepository } from '../../../../src/infrastructure/incidents/sql-incident.repository';
import { OutboxIncidentEvents } from '../../../support/outbox-events';
import { SqlAlertStateRepository } from '../../../../src/infrastructure/incidents/sql-alert-state.repository';
import { SqlMaintenanceWindowRepository } from '../../../../src/infrastructure/maintenance/sql-maintenance-window.repository';
import { LocationCodes } from '../../../../src/infrastructure/results/location-codes';
import { SqlMonitorLookup } from '../../../../src/infrastructure/results/sql-monitor-lookup';
import { SqlResultStore } from '../../../../src/infrastructure/results/sql-result-store';
import { SqlServedLocations } from '../../../../src/infrastructure/scheduling/sql-served-locations';
import { ORM } from '../../../../src/main/tokens';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MINUTE = 60_000;

/** Counts the statements its runner sends. */
/** Counts the statements of the runner it wraps, and stands where it stands (a unit of work's or the pool's). */
class CountingSql implements UnitOfWorkSql {
  readonly joinsUnitOfWork = true as const;
  statements = 0;
  constructor(private readonly inner: SqlRunner) {}
  readonly query: SqlRunner['query'] = (statement, options) => {
    this.statements += 1;
    return this.inner.query(statement, options);
  };
}

/**
 * The composition root's RecordCheckResult, built over counting runners: every statement the
 * recording sends, in its transaction or on the pool, is counted (the routing's own reads are not:
 * no monitor here is routed, and they are one per batch too).
 */
async function countedRecorder() {
  const app = await testServer();
  const orm = app.container.get<MikroORM>(ORM);
  const context = new CountingSql(new OrmPoolSql(orm));
  const pool = new CountingSql(app.database.sql);
  const incidents = new SqlIncidentRepository(context);
  const actions = new AlertActions(
    incidents,
    new OutboxIncidentEvents(context),
    app.container.get(ID_GENERATOR),
    app.container.get(INCIDENT_ROUTING),
  );
  const recorder = new RecordCheckResult(
    new SqlMonitorLookup(context),
    new SqlResultStore(context, app.database.sql, new LocationCodes(context, app.database.sql)),
    new SqlAlertStateRepository(context, pool),
    incidents,
    new MaintenanceSuppression(new SqlMaintenanceWindowRepository(context, pool), app.container.get(RECURRENCE_EXPANDER)),
    actions,
    app.container.get(TRANSACTION_RUNNER),
    app.container.get(CLOCK),
    // Uncached, so that every judged batch counts its one read of the live locations.
    new SqlServedLocations(pool),
    { detailSampleMinutes: 60 },
  );
  const record = async (inputs: RecordCheckResultInput[]) => {
    const before = context.statements + pool.statements;
    const batch = await app.container.get<TransactionRunner>(TRANSACTION_RUNNER).run((tx) => recorder.executeMany(inputs, tx));
    return { batch, statements: context.statements + pool.statements - before };
  };
  return { record };
}

async function monitorsOfOneCustomer(count: number, overrides: Parameters<typeof aMonitorRow>[2] = {}) {
  const org = await anOrganization();
  const customerId = await aCustomerRow(org.user.organizationId);
  const monitors: MonitorRow[] = [];
  for (let i = 0; i < count; i += 1) {
    monitors.push(await aMonitorRow(org.user.organizationId, customerId, { locations: ['eu'], consecutiveChecks: 1, ...overrides }));
  }
  return monitors;
}

const inputOf = (monitor: MonitorRow, status: 'up' | 'down', at: Date): RecordCheckResultInput => ({
  monitorId: monitor.id,
  organizationId: monitor.organizationId,
  customerId: monitor.customerId,
  location: 'eu',
  intervalMs: monitor.checkIntervalSeconds * 1000,
  result: aResult(status, at),
});

async function rowsOf(monitors: readonly MonitorRow[]) {
  const { database } = await testServer();
  const ids = JSON.stringify(monitors.map((m) => m.id));
  const incidents = await database.sql.query<{ id: number; monitor_id: string; status: string }>(
    sql`SELECT id, monitor_id, status FROM incidents WHERE monitor_id IN (SELECT jsonb_array_elements_text(${ids}::jsonb)::bigint) ORDER BY id`,
  );
  const events = await database.sql.query<{ kind: string; monitor_id: string; incident_id: string }>(
    sql`SELECT kind, payload->>'monitorId' AS monitor_id, payload->>'incidentId' AS incident_id FROM notification_outbox
      WHERE kind <> 'email' AND payload->>'monitorId' IN (SELECT jsonb_array_elements_text(${ids}::jsonb)) ORDER BY id`,
  );
  const timeline = await database.sql.query<{ kind: string; n: string }>(
    sql`SELECT t.kind, count(*) AS n FROM incident_timeline t JOIN incidents i ON i.id = t.incident_id
      WHERE i.monitor_id IN (SELECT jsonb_array_elements_text(${ids}::jsonb)::bigint) GROUP BY t.kind ORDER BY t.kind`,
  );
  const states = await database.sql.query<{ monitor_id: string; open_incident_id: number | null }>(
    sql`SELECT monitor_id, open_incident_id FROM monitor_alert_states WHERE monitor_id IN (SELECT jsonb_array_elements_text(${ids}::jsonb)::bigint)`,
  );
  const [results] = await database.sql.query<{ n: string }>(
    sql`SELECT count(*) AS n FROM check_results WHERE monitor_id IN (SELECT jsonb_array_elements_text(${ids}::jsonb)::bigint)`,
  );
  return {
    incidents,
    events,
    states,
    results: Number(results!.n),
    timeline: Object.fromEntries(timeline.map((row) => [row.kind, Number(row.n)])),
  };
}

describe('set-based recording on PostgreSQL: a storm costs statements per batch, not per failure', () => {
  it('opens and resolves incidents for 200 monitors with the same statements as for 20', async () => {
    const { record } = await countedRecorder();
    const t0 = new Date(testClock.now().getTime() - 30 * MINUTE);
    const figures: Record<number, { up: number; down: number; recovery: number }> = {};
    for (const count of [20, 200]) {
      const monitors = await monitorsOfOneCustomer(count);
      const up = await record(monitors.map((m) => inputOf(m, 'up', t0)));
      const down = await record(monitors.map((m) => inputOf(m, 'down', new Date(t0.getTime() + MINUTE))));
      expect(down.batch.judged).to.have.length(count);
      const recovery = await record(monitors.map((m) => inputOf(m, 'up', new Date(t0.getTime() + 2 * MINUTE))));
      figures[count] = { up: up.statements, down: down.statements, recovery: recovery.statements };

      const rows = await rowsOf(monitors);
      expect(rows.incidents, 'one incident per monitor').to.have.length(count);
      expect(rows.incidents.every((i) => i.status === 'resolved')).to.equal(true);
      expect(new Set(rows.incidents.map((i) => Number(i.monitor_id))).size).to.equal(count);
      expect(rows.events.filter((e) => e.kind === 'incidentOpened')).to.have.length(count);
      expect(rows.events.filter((e) => e.kind === 'incidentResolved')).to.have.length(count);
      // Each monitor's events in order: its opening before its recovery.
      for (const monitor of monitors) {
        expect(rows.events.filter((e) => Number(e.monitor_id) === monitor.id).map((e) => e.kind)).to.deep.equal([
          'incidentOpened',
          'incidentResolved',
        ]);
      }
      expect(rows.timeline).to.deep.equal({ locationReport: count, opened: count, resolved: count });
      expect(rows.states.every((s) => s.open_incident_id === null)).to.equal(true);
      expect(rows.results).to.equal(3 * count);
    }
    // (The first batch of all also looks up the day's partition and the location's code, once.)
    expect({ ...figures[200], up: 0 }, 'statements per batch do not grow with the failures').to.deep.equal({ ...figures[20], up: 0 });
    expect(figures[200]!.up).to.be.at.most(figures[20]!.up);
    // Profiles, maintenance, live locations, peek; lock (2), incidents, ids; results, incidents, timeline, events, states: about a dozen.
    expect(figures[200]!.down).to.be.at.most(14);
    expect(figures[200]!.recovery).to.be.at.most(14);
  });

  it('judges results of one monitor in a batch one after the other: opened and resolved within it, then opened again', async () => {
    const { record } = await countedRecorder();
    const [monitor] = await monitorsOfOneCustomer(1, { reminderMinutes: 0 });
    const t0 = new Date(testClock.now().getTime() - 20 * MINUTE);
    const { batch } = await record([
      inputOf(monitor!, 'down', t0),
      inputOf(monitor!, 'up', new Date(t0.getTime() + MINUTE)),
      inputOf(monitor!, 'down', new Date(t0.getTime() + 2 * MINUTE)),
      // An older result of the location changes nothing.
      inputOf(monitor!, 'up', new Date(t0.getTime() + 90_000)),
    ]);
    expect(batch.judged).to.have.length(4);
    const rows = await rowsOf([monitor!]);
    expect(rows.incidents.map((i) => i.status)).to.deep.equal(['resolved', 'open']);
    expect(rows.events.map((e) => e.kind)).to.deep.equal(['incidentOpened', 'incidentResolved', 'incidentOpened']);
    expect(rows.states[0]!.open_incident_id).to.equal(rows.incidents[1]!.id);
    expect(rows.results).to.equal(4);

    // The next batch finds the open incident and resolves it.
    await record([inputOf(monitor!, 'up', new Date(t0.getTime() + 3 * MINUTE))]);
    expect((await rowsOf([monitor!])).incidents.map((i) => i.status)).to.deep.equal(['resolved', 'resolved']);
  });

  it("keeps a person's acknowledgement that committed before the recovery", async () => {
    const { record } = await countedRecorder();
    const { database } = await testServer();
    const [monitor] = await monitorsOfOneCustomer(1);
    const t0 = new Date(testClock.now().getTime() - 10 * MINUTE);
    await record([inputOf(monitor!, 'down', t0)]);
    const [incident] = (await rowsOf([monitor!])).incidents;
    await database.sql.query(
      sql`UPDATE incidents SET status = 'acknowledged', acknowledged_at = ${t0}, version = version + 1 WHERE id = ${incident!.id}`,
    );
    await record([inputOf(monitor!, 'up', new Date(t0.getTime() + MINUTE))]);
    const [row] = await database.sql.query<{ status: string; acknowledged_at: Date | null; version: number }>(
      sql`SELECT status, acknowledged_at, version FROM incidents WHERE id = ${incident!.id}`,
    );
    expect(row!.status).to.equal('resolved');
    expect(row!.acknowledged_at).to.not.equal(null);
    expect(row!.version, 'the acknowledgement and the resolution each moved the version').to.equal(3);
  });
});
