import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer, aWebsite, storedMonitor } from '../../../support/monitoring-fixtures';
import { testServer } from '../../../support/test-server';
import { OutboxIncidentEvents } from '../../../support/outbox-events';
import { SqlDeliveryLedger } from '../../../../src/infrastructure/notifications/sql-delivery-ledger';
import type { EventRoute, OutboxEvent } from '../../../../src/application/notifications/ports';
import { standalone } from '../../../support/unit-of-work';
import { sql } from '../../../../src/infrastructure/persistence/sql';

async function aChannel(token: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await api('POST', '/api/notification-channels', { token, body: { name: 'c', ...body } });
  if (response.status !== 201) throw new Error(`channel create failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

/**
 * The ledger routes a worker's round of events in one statement (one commit), each event at most
 * once; attempts that finish together are each settled only under their own lease.
 */
describe('a round of events routed at once, and attempts settled together (SqlDeliveryLedger on PostgreSQL)', () => {
  it("writes each event's deliveries, marks every event routed (one without channels too), and never routes an event twice, even racing", async () => {
    const { database } = await testServer();
    const ledger = new SqlDeliveryLedger(database.sql);
    const org = await anOrganization('batch-routing');
    const organizationId = org.user.organizationId;
    const customer = await aMonitoredCustomer(org.token);
    const website = await aWebsite().forCustomer(customer.id).create(org.token);
    const monitorId = Number((await storedMonitor(website.publicId)).id);
    const hook = await aChannel(org.token, { type: 'webhook', config: { url: 'https://hooks.batch-fixture.com/a' } });
    const mail = await aChannel(org.token, { type: 'email', config: { recipients: ['ops@example.com'] } });
    const events = new OutboxIncidentEvents(standalone(database.sql));
    for (const incident of ['inc-a', 'inc-b', 'inc-c', 'inc-d']) {
      await events.publish({
        kind: 'incidentOpened',
        organizationId,
        customerId: customer.id,
        monitorId,
        incidentPublicId: incident,
        occurredAt: new Date('2026-12-14T10:00:00Z'),
        summary: `${incident} is down`,
        data: {},
      });
    }
    const outbox = await database.sql.query<{ id: string; incident: string }>(
      sql`SELECT id, payload->>'incidentId' AS incident FROM notification_outbox WHERE organization_id = ${organizationId} ORDER BY id`,
    );
    const routeOf = (i: number, channels: Array<Record<string, any>>): EventRoute => {
      const event: OutboxEvent = {
        id: Number(outbox[i]!.id),
        organizationId,
        kind: 'incidentOpened',
        customerId: customer.id,
        monitorId,
        incidentId: outbox[i]!.incident,
        occurredAt: '2026-12-14T10:00:00.000Z',
        summary: `${outbox[i]!.incident} is down`,
        data: {},
      };
      return {
        event,
        channels: channels.map((c) => ({ id: c.id, publicId: c.publicId, type: c.type })),
        message: {
          event: 'incident.opened',
          occurredAt: event.occurredAt,
          summary: event.summary,
          incidentId: event.incidentId,
          monitorId,
          customerId: customer.id,
          data: {},
        },
      };
    };
    const at = new Date('2026-12-14T10:00:01Z');

    expect(await ledger.routeMany([routeOf(0, [hook, mail]), routeOf(1, []), routeOf(2, [mail])], at)).to.equal(3);
    const deliveries = async () =>
      database.sql.query<Record<string, any>>(
        sql`SELECT outbox_id::int AS outbox, channel_public_id::text AS channel, channel_type, customer_id, monitor_id::int AS monitor, incident_id, event,
              payload->>'summary' AS summary, status
         FROM notification_deliveries WHERE organization_id = ${organizationId} ORDER BY outbox_id, channel_id`,
      );
    const base = { customer_id: customer.id, monitor: monitorId, event: 'incident.opened', status: 'pending' };
    const expected = [
      {
        outbox: Number(outbox[0]!.id),
        channel: hook.publicId,
        channel_type: 'webhook',
        incident_id: 'inc-a',
        summary: 'inc-a is down',
        ...base,
      },
      {
        outbox: Number(outbox[0]!.id),
        channel: mail.publicId,
        channel_type: 'email',
        incident_id: 'inc-a',
        summary: 'inc-a is down',
        ...base,
      },
      {
        outbox: Number(outbox[2]!.id),
        channel: mail.publicId,
        channel_type: 'email',
        incident_id: 'inc-c',
        summary: 'inc-c is down',
        ...base,
      },
    ];
    expect(await deliveries()).to.deep.equal(expected);
    const routed = await database.sql.query<{ incident: string; routed: boolean }>(
      sql`SELECT payload->>'incidentId' AS incident, routed_at IS NOT NULL AS routed FROM notification_outbox WHERE organization_id = ${organizationId} ORDER BY id`,
    );
    expect(routed.map((r) => [r.incident, r.routed])).to.deep.equal([
      ['inc-a', true],
      ['inc-b', true],
      ['inc-c', true],
      ['inc-d', false],
    ]);

    // Routed again (a second worker that read the same events), and the last event raced by two workers.
    const again = [routeOf(0, [hook, mail]), routeOf(1, [hook]), routeOf(2, [mail]), routeOf(3, [hook])];
    const raced = await Promise.all([ledger.routeMany(again, at), ledger.routeMany(again, at)]);
    expect(raced.sort()).to.deep.equal([0, 1]);
    expect(await deliveries()).to.deep.equal([
      ...expected,
      {
        outbox: Number(outbox[3]!.id),
        channel: hook.publicId,
        channel_type: 'webhook',
        incident_id: 'inc-d',
        summary: 'inc-d is down',
        ...base,
      },
    ]);
    expect(await ledger.routeMany([], at)).to.equal(0);
  });

  it('settles attempts finishing together, each for itself: one whose lease another worker took is refused', async () => {
    const { database } = await testServer();
    const ledger = new SqlDeliveryLedger(database.sql);
    const org = await anOrganization('batch-settle');
    const organizationId = org.user.organizationId;
    const hooks = await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) =>
        aChannel(org.token, { type: 'webhook', config: { url: `https://hooks.batch-fixture.com/${name}` } }),
      ),
    );
    const sent = await api('POST', '/api/notifications/send-alert', {
      token: org.token,
      body: { title: 'Power', message: 'Generators on.', severity: 'info' },
    });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
    const deliveryTo = new Map((sent.body.deliveries as Array<{ id: string; channelId: string }>).map((x) => [x.channelId, x.id]));
    const [a, b, c, d] = hooks.map((hook) => deliveryTo.get(hook.publicId));
    await database.sql.query(
      sql`UPDATE notification_deliveries SET lease_owner = 'w1', lease_until = now() + interval '1 minute' WHERE organization_id = ${organizationId}`,
    );
    await database.sql.query(sql`UPDATE notification_deliveries SET lease_owner = 'w2' WHERE id = ${b}`);
    const at = new Date('2026-12-14T10:00:00Z');
    const attempt = (outcome: 'delivered' | 'retry' | 'failed', statusCode: number | null) => ({
      attempt: 1,
      at,
      statusCode,
      outcome,
      responseExcerpt: statusCode === null ? null : `answer ${statusCode}`,
      latencyMs: 12.4,
      error: statusCode === null ? 'No answer' : null,
    });

    const answers = await Promise.all([
      ledger.settle('w1', a!, attempt('delivered', 200), { status: 'delivered' }),
      ledger.settle('w1', b!, attempt('delivered', 200), { status: 'delivered' }),
      ledger.settle('w1', c!, attempt('retry', null), { status: 'pending', nextAttemptAt: new Date('2026-12-14T10:01:00Z') }),
      ledger.settle('w1', d!, attempt('failed', 410), { status: 'failed', reason: 'Answered 410', channelFault: true, fallBack: false }),
    ]);
    expect(answers).to.deep.equal([true, false, true, true]);
    const rows = await database.sql.query<Record<string, any>>(
      sql`SELECT d.id::text, d.status, d.attempts, d.lease_owner, d.next_attempt_at, d.delivered_at, d.failed_at, d.last_error,
              (SELECT json_agg(json_build_object('status', a.status_code, 'outcome', a.outcome, 'excerpt', a.response_excerpt, 'latency', a.latency_ms))
                 FROM notification_delivery_attempts a WHERE a.delivery_id = d.id) AS tries
         FROM notification_deliveries d WHERE organization_id = ${organizationId}`,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(a)).to.deep.include({ status: 'delivered', attempts: 1, lease_owner: null, delivered_at: at, failed_at: null });
    expect(byId.get(a)!.tries).to.deep.equal([{ status: 200, outcome: 'delivered', excerpt: 'answer 200', latency: 12 }]);
    expect(byId.get(b), 'another worker holds it: untouched').to.deep.include({
      status: 'pending',
      attempts: 0,
      lease_owner: 'w2',
      tries: null,
    });
    expect(byId.get(c)).to.deep.include({ status: 'pending', attempts: 1, lease_owner: null, last_error: 'No answer' });
    expect(byId.get(c)!.next_attempt_at).to.deep.equal(new Date('2026-12-14T10:01:00Z'));
    expect(byId.get(c)!.tries).to.deep.equal([{ status: null, outcome: 'retry', excerpt: null, latency: 12 }]);
    expect(byId.get(d)).to.deep.include({ status: 'failed', attempts: 1, failed_at: at, last_error: 'Answered 410' });
    expect(await ledger.settle('w1', a!, attempt('delivered', 200), { status: 'delivered' }), 'settled once').to.equal(false);
  });
});
