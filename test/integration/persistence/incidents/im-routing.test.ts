import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, record, type MonitorRow } from '../../../support/results-fixtures';
import { testServer } from '../../../support/test-server';
import { testClock } from '../../../support/test-clock';
import {
  INCIDENT_REPOSITORY,
  INCIDENT_ROUTING,
  type IncidentRepository,
  type IncidentRouting,
} from '../../../../src/application/incidents/ports';
import { Incident } from '../../../../src/domain/incidents/incident';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';
import { RouteMonitorIncident } from '../../../../src/application/incident-management/route-monitor-incident';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MINUTE = 60_000;

/** A monitor of an organization with IM on, whose customer routes its incidents into IM. */
async function aRoutedMonitor(of?: { organizationId: number; customerId: number }): Promise<MonitorRow> {
  if (of) return aMonitorRow(of.organizationId, of.customerId, { consecutiveChecks: 1 });
  const org = await anOrganization();
  const organizationId = org.user.organizationId;
  const customerId = await aCustomerRow(organizationId);
  const { database } = await testServer();
  await database.sql.query(sql`UPDATE organizations SET incident_management_enabled = true WHERE id = ${organizationId}`);
  await database.sql.query(
    sql`INSERT INTO im_customer_routing (customer_id, organization_id, enabled, updated_at) VALUES (${customerId}, ${organizationId}, true, now())`,
  );
  return aMonitorRow(organizationId, customerId, { consecutiveChecks: 1 });
}

async function imIncidentsOf(monitor: MonitorRow) {
  const { database } = await testServer();
  return database.sql.query<{ id: number; status: string; dedup_key: string; occurrence_count: number }>(
    sql`SELECT id, status, dedup_key, occurrence_count FROM im_incidents WHERE origin_monitor_id = ${monitor.publicId} ORDER BY id`,
  );
}

describe('check-engine incidents routed into IM, on PostgreSQL', () => {
  it('the same failing result recorded twice at once, and the routing retried by two workers, make one IM incident', async () => {
    const monitor = await aRoutedMonitor();
    const failing = aResult('down', new Date(testClock.now().getTime() - 5 * MINUTE));
    await Promise.all([record(monitor, 'eu', failing), record(monitor, 'eu', failing)]);
    const app = await testServer();
    const [engine] = await app.database.sql.query<{ id: number; public_id: string }>(
      sql`SELECT id, public_id FROM incidents WHERE monitor_id = ${monitor.id}`,
    );
    let routed = await imIncidentsOf(monitor);
    expect(routed).to.have.length(1);
    expect(routed[0]!.dedup_key).to.equal(`monitor-storm:${monitor.customerId}:-:-`);

    // Two workers that both believe they opened it (a redelivered batch) report it again, concurrently.
    const again = async () => {
      const incident = await app.container.get<IncidentRepository>(INCIDENT_REPOSITORY).findById(engine!.id);
      await app.container
        .get<TransactionRunner>(TRANSACTION_RUNNER)
        .run((tx) =>
          app.container
            .get<IncidentRouting>(INCIDENT_ROUTING)
            .opened([{ incident: incident!, monitor: { publicId: monitor.publicId, monitorId: monitor.id, name: 'm' } }], tx),
        );
    };
    await Promise.all([again(), again()]);
    routed = await imIncidentsOf(monitor);
    expect(routed.map((r) => [r.status, Number(r.occurrence_count)])).to.deep.equal([['triggered', 3]]);

    const upAt = new Date(testClock.now().getTime() - 4 * MINUTE);
    await Promise.all([record(monitor, 'eu', aResult('up', upAt)), record(monitor, 'eu', aResult('up', upAt))]);
    routed = await imIncidentsOf(monitor);
    expect(routed.map((r) => r.status)).to.deep.equal(['resolved']);
    const timeline = await app.database.sql.query<{ kind: string }>(
      sql`SELECT kind FROM im_incident_timeline WHERE incident_id = ${routed[0]!.id} ORDER BY id`,
    );
    expect(timeline.map((t) => t.kind)).to.deep.equal(['triggered', 'occurrence', 'occurrence', 'resolved']);
  });

  it('the IM incident commits with the engine incident: a failed engine transaction leaves neither', async () => {
    const monitor = await aRoutedMonitor();
    const app = await testServer();
    const failure = await app.container
      .get<TransactionRunner>(TRANSACTION_RUNNER)
      .run(async (tx) => {
        const repository = app.container.get<IncidentRepository>(INCIDENT_REPOSITORY);
        const now = testClock.now();
        const incident = await repository.add(
          new Incident({
            publicId: '33333333-3333-4333-8333-333333333333',
            organizationId: monitor.organizationId,
            customerId: monitor.customerId,
            monitorId: monitor.id,
            origin: 'automatic',
            title: 'm is down',
            description: null,
            causeReasonCode: null,
            causeMessage: null,
            startedAt: now,
            createdByUserId: null,
            now,
          }),
          tx,
        );
        await app.container
          .get<IncidentRouting>(INCIDENT_ROUTING)
          .opened([{ incident: incident, monitor: { publicId: monitor.publicId, monitorId: monitor.id, name: 'm' } }], tx);
        expect(await imIncidentsOf(monitor)).to.have.length(0); // another connection: nothing committed yet
        throw new Error('the engine transaction fails after routing');
      })
      .catch((error: Error) => error);
    expect((failure as Error).message).to.equal('the engine transaction fails after routing');
    expect(await imIncidentsOf(monitor)).to.deep.equal([]);
  });

  it('a storm of one customer is one IM incident standing for each engine incident; it resolves with the last recovery, or by the sweep when two raced', async () => {
    const first = await aRoutedMonitor();
    const others = [await aRoutedMonitor(first), await aRoutedMonitor(first)];
    const app = await testServer();
    const downAt = new Date(testClock.now().getTime() - 10 * MINUTE);
    await Promise.all([first, ...others].map((m) => record(m, 'eu', aResult('down', downAt))));
    const storm = await app.database.sql.query<{ id: number; status: string; occurrence_count: number }>(
      sql`SELECT id, status, occurrence_count FROM im_incidents WHERE customer_id = ${first.customerId}`,
    );
    expect(storm.map((r) => [r.status, Number(r.occurrence_count)])).to.deep.equal([['triggered', 3]]);
    const origins = await app.database.sql.query<{ incident_public_id: string }>(
      sql`SELECT incident_public_id FROM im_incident_monitor_origins WHERE im_incident_id = ${storm[0]!.id}`,
    );
    expect(origins).to.have.length(3);

    const upAt = new Date(downAt.getTime() + MINUTE);
    await record(first, 'eu', aResult('up', upAt));
    const statusOf = async () =>
      (await app.database.sql.query<{ status: string }>(sql`SELECT status FROM im_incidents WHERE id = ${storm[0]!.id}`))[0]!.status;
    expect(await statusOf()).to.equal('triggered');
    // The last two recover at once: whichever commits second may have seen the other still down.
    await Promise.all(others.map((m) => record(m, 'eu', aResult('up', upAt))));
    const route = app.container.get(RouteMonitorIncident);
    const tx = app.container.get<TransactionRunner>(TRANSACTION_RUNNER);
    await tx.run((t) => route.resolveAllRecovered(t));
    expect(await statusOf()).to.equal('resolved');
  });
});
