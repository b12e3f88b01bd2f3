import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import { testServer } from '../../../support/test-server';
import { SqlStormLedger } from '../../../../src/infrastructure/notifications/sql-storm-ledger';
import { SqlDeliveryLedger } from '../../../../src/infrastructure/notifications/sql-delivery-ledger';
import { OutboxIncidentEvents, UNTOLD_HELD } from '../../../support/outbox-events';
import { CALM, routeInStorm, stormDueAt, tellStorm, type CustomerStorm } from '../../../../src/domain/notifications/storm-digest';
import type { OutboxEvent, StormRoute, StormWrite } from '../../../../src/application/notifications/ports';
import { standalone } from '../../../support/unit-of-work';
import { raw, sql } from '../../../../src/infrastructure/persistence/sql';

const POLICY = { alone: 2, windowMs: 60_000, settleMs: 60_000, followUpMs: 60_000, quietMs: 1_800_000 };

/**
 * A routing round's storms in one statement: the customers' writes go together, but each is still
 * guarded on its own, so one customer's lost race leaves its events for the next round and takes
 * nothing from the others' (and likewise for the due storms' messages).
 */
describe("a routing round's storms in one statement (PostgreSQL)", () => {
  it("writes each customer's storm on its own guard: a stale one writes nothing, the others are routed and told", async () => {
    const { database } = await testServer();
    const org = await anOrganization('storm-round');
    const organizationId = org.user.organizationId;
    const created = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'round', type: 'webhook', config: { url: 'https://hooks.round-fixture.com/a' } },
    });
    expect(created.status).to.equal(201);
    const [row] = await database.sql.query<{ id: number }>(
      sql`SELECT id FROM notification_channels WHERE public_id = ${created.body.publicId}`,
    );
    const channel = { id: row!.id, publicId: created.body.publicId as string, type: 'webhook' };
    const [a, b] = [await aMonitoredCustomer(org.token), await aMonitoredCustomer(org.token)];
    const outbox = new OutboxIncidentEvents(standalone(database.sql));
    for (const [n, customer] of [a!, b!].entries()) {
      for (let i = 0; i < 3; i += 1) {
        await outbox.publish({
          kind: 'incidentOpened',
          organizationId,
          customerId: customer.id,
          monitorId: 10 * n + i + 1,
          incidentPublicId: `storm-round-${n}-${i}`,
          occurredAt: new Date(),
          summary: `site ${n}/${i} is down`,
          data: {},
        });
      }
    }
    const unrouted = async () =>
      (await new SqlDeliveryLedger(database.sql).unroutedEvents(['incidentOpened'], 1000)).filter(
        (e) => e.organizationId === organizationId,
      );
    const events = await unrouted();
    const at = new Date();
    const write = (customerId: number, version: number): StormWrite => {
      let state: CustomerStorm = CALM;
      const routes: StormRoute[] = events
        .filter((e) => e.customerId === customerId)
        .map((event: OutboxEvent) => {
          const step = routeInStorm(state, { kind: 'incident.opened', incidentId: event.incidentId, at: at.getTime() }, POLICY);
          state = step.state;
          const { occurredAt, summary, incidentId, monitorId } = event;
          const message = { event: 'incident.opened' as const, occurredAt, summary, incidentId, monitorId, customerId, data: {} };
          return { event, channels: [channel], decision: step.decision, message };
        });
      const due = stormDueAt(state, POLICY);
      return { organizationId, customerId, version, next: state, dueAt: due === null ? null : new Date(due), routes };
    };
    const storms = new SqlStormLedger(database.sql);

    // A's write read a version the row does not have: only B's goes ahead.
    expect(await storms.routeAll([write(a!.id, 1), write(b!.id, 0)], at)).to.deep.equal([false, true]);
    expect((await unrouted()).map((e) => e.customerId)).to.deep.equal([a!.id, a!.id, a!.id]);
    const deliveries = () =>
      database.sql.query<{ customer_id: number; event: string }>(
        sql`SELECT customer_id, event FROM notification_deliveries WHERE organization_id = ${organizationId} ORDER BY id`,
      );
    expect(await deliveries()).to.deep.equal([
      { customer_id: b!.id, event: 'incident.opened' },
      { customer_id: b!.id, event: 'incident.opened' },
    ]);
    expect(await storms.stormsOf([a!, b!].map((c) => ({ organizationId, customerId: c.id })))).to.deep.include.members([
      { state: CALM, version: 0 },
    ]);
    expect(await storms.routeAll([write(a!.id, 0)], at)).to.deep.equal([true]);

    // Both due: A's message from a stale read writes nothing; B's is told with its held event.
    const later = new Date(at.getTime() + POLICY.windowMs);
    const due = (await storms.dueStorms(later, 1000)).filter((d) => d.organizationId === organizationId);
    expect(due.map((d) => [d.customerId, d.held.length])).to.have.deep.members([
      [a!.id, 1],
      [b!.id, 1],
    ]);
    const tell = (storm: (typeof due)[number], version: number) => {
      const next = tellStorm(storm.state, later.getTime(), POLICY);
      const message = {
        event: 'incident.digest' as const,
        occurredAt: later.toISOString(),
        summary: 'down',
        incidentId: null,
        monitorId: null,
        customerId: storm.customerId,
        data: { stage: next.stage },
      };
      return { storm: { ...storm, version }, next: next.state, dueAt: null, deliveries: [{ channel, message }] };
    };
    const [dueA, dueB] = [due.find((d) => d.customerId === a!.id)!, due.find((d) => d.customerId === b!.id)!];
    expect(await storms.tellAll([tell(dueA, dueA.version + 1), tell(dueB, dueB.version)], later)).to.deep.equal([false, true]);
    expect((await deliveries()).filter((d) => d.event === 'incident.digest')).to.deep.equal([
      { customer_id: b!.id, event: 'incident.digest' },
    ]);
    const told = await database.sql.query<{ customer_id: number; n: number }>(
      sql`SELECT o.held_customer_id AS customer_id, count(*)::int AS n FROM notification_outbox o
          WHERE o.organization_id = ${organizationId} AND o.held_until IS NOT NULL AND NOT (${raw(UNTOLD_HELD)})
          GROUP BY 1`,
    );
    expect(told).to.deep.equal([{ customer_id: b!.id, n: 1 }]);
    expect((await storms.dueStorms(later, 1000)).filter((d) => d.organizationId === organizationId).map((d) => d.customerId)).to.deep.equal(
      [a!.id],
    );
  });
});
