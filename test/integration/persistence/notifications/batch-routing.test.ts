import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer, aWebsite, storedMonitor } from '../../../support/monitoring-fixtures';
import { testServer } from '../../../support/test-server';
import { OutboxIncidentEvents } from '../../../../src/infrastructure/incidents/outbox-incident-events';
import { SqlDeliveryLedger } from '../../../../src/infrastructure/notifications/sql-delivery-ledger';
import type { EventRoute, OutboxEvent } from '../../../../src/application/notifications/ports';

async function aChannel(token: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await api('POST', '/api/notification-channels', { token, body: { name: 'c', ...body } });
  if (response.status !== 201) throw new Error(`channel create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** The ledger routes a worker's round of events in one statement (one commit), each event at most once. */
describe('routing a round of outbox events into the ledger at once (SqlDeliveryLedger on PostgreSQL)', () => {
  it('writes each event\'s deliveries, marks every event routed (one without channels too), and never routes an event twice, even racing', async () => {
    const { database } = await testServer();
    const ledger = new SqlDeliveryLedger(database.sql);
    const org = await anOrganization('batch-routing');
    const organizationId = org.user.organizationId;
    const customer = await aMonitoredCustomer(org.token);
    const website = await aWebsite().forCustomer(customer.id).create(org.token);
    const monitorId = Number((await storedMonitor(website.publicId)).id);
    const hook = await aChannel(org.token, { type: 'webhook', config: { url: 'https://hooks.batch-fixture.com/a' } });
    const mail = await aChannel(org.token, { type: 'email', config: { recipients: ['ops@example.com'] } });
    const events = new OutboxIncidentEvents(database.sql);
    for (const incident of ['inc-a', 'inc-b', 'inc-c', 'inc-d']) {
      await events.publish({
        kind: 'incidentOpened', organizationId, customerId: customer.id, monitorId, incidentPublicId: incident,
        occurredAt: new Date('2026-12-14T10:00:00Z'), summary: `${incident} is down`, data: {},
      });
    }
    const outbox = await database.sql.query<{ id: string; incident: string }>(
      `SELECT id, payload->>'incidentId' AS incident FROM notification_outbox WHERE organization_id = ? ORDER BY id`, [organizationId]);
    const routeOf = (i: number, channels: Array<Record<string, any>>): EventRoute => {
      const event: OutboxEvent = {
        id: Number(outbox[i]!.id), organizationId, kind: 'incidentOpened', customerId: customer.id, monitorId, incidentId: outbox[i]!.incident,
        occurredAt: '2026-12-14T10:00:00.000Z', summary: `${outbox[i]!.incident} is down`, data: {},
      };
      return {
        event, channels: channels.map((c) => ({ id: c.id, publicId: c.publicId, type: c.type })),
        message: { event: 'incident.opened', occurredAt: event.occurredAt, summary: event.summary, incidentId: event.incidentId, monitorId, customerId: customer.id, data: {} },
      };
    };
    const at = new Date('2026-12-14T10:00:01Z');

    expect(await ledger.route([routeOf(0, [hook, mail]), routeOf(1, []), routeOf(2, [mail])], at)).to.equal(3);
    const deliveries = async () => database.sql.query<Record<string, any>>(
      `SELECT outbox_id::int AS outbox, channel_public_id::text AS channel, channel_type, customer_id, monitor_id::int AS monitor, incident_id, event,
              payload->>'summary' AS summary, status
         FROM notification_deliveries WHERE organization_id = ? ORDER BY outbox_id, channel_id`, [organizationId]);
    const base = { customer_id: customer.id, monitor: monitorId, event: 'incident.opened', status: 'pending' };
    const expected = [
      { outbox: Number(outbox[0]!.id), channel: hook.publicId, channel_type: 'webhook', incident_id: 'inc-a', summary: 'inc-a is down', ...base },
      { outbox: Number(outbox[0]!.id), channel: mail.publicId, channel_type: 'email', incident_id: 'inc-a', summary: 'inc-a is down', ...base },
      { outbox: Number(outbox[2]!.id), channel: mail.publicId, channel_type: 'email', incident_id: 'inc-c', summary: 'inc-c is down', ...base },
    ];
    expect(await deliveries()).to.deep.equal(expected);
    const routed = await database.sql.query<{ incident: string; routed: boolean }>(
      `SELECT payload->>'incidentId' AS incident, routed_at IS NOT NULL AS routed FROM notification_outbox WHERE organization_id = ? ORDER BY id`, [organizationId]);
    expect(routed.map((r) => [r.incident, r.routed])).to.deep.equal([['inc-a', true], ['inc-b', true], ['inc-c', true], ['inc-d', false]]);

    // Routed again (a second worker that read the same events), and the last event raced by two workers.
    const again = [routeOf(0, [hook, mail]), routeOf(1, [hook]), routeOf(2, [mail]), routeOf(3, [hook])];
    const raced = await Promise.all([ledger.route(again, at), ledger.route(again, at)]);
    expect(raced.sort()).to.deep.equal([0, 1]);
    expect(await deliveries()).to.deep.equal([
      ...expected,
      { outbox: Number(outbox[3]!.id), channel: hook.publicId, channel_type: 'webhook', incident_id: 'inc-d', summary: 'inc-d is down', ...base },
    ]);
    expect(await ledger.route([], at)).to.equal(0);
  });
});
