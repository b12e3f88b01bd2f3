import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import { testServer } from '../../../support/test-server';
import { SqlStormLedger } from '../../../../src/infrastructure/notifications/sql-storm-ledger';
import { SqlDeliveryLedger } from '../../../../src/infrastructure/notifications/sql-delivery-ledger';
import { SqlChannelHealthLedger } from '../../../../src/infrastructure/notifications/sql-channel-health-ledger';
import { OutboxIncidentEvents } from '../../../../src/infrastructure/incidents/outbox-incident-events';
import { channelFailingMessage } from '../../../../src/domain/notifications/channel-health';

const POLICY = { alone: 2, windowMs: 60_000 };

/**
 * The storm and fallback statements raced on the real tables, as several workers would run them:
 * each write is guarded in its own statement, so racing copies write it once.
 */
describe('storm windows and fallbacks under racing workers (PostgreSQL)', () => {
  async function aSetup(label: string) {
    const { database } = await testServer();
    const org = await anOrganization(label);
    const customer = await aMonitoredCustomer(org.token);
    const created = await api('POST', '/api/notification-channels', { token: org.token, body: { name: label, type: 'webhook', config: { url: 'https://hooks.race-fixture.com/a' } } });
    expect(created.status).to.equal(201);
    const [row] = await database.sql.query<{ id: number }>('SELECT id FROM notification_channels WHERE public_id = ?', [created.body.publicId]);
    const channel = { id: row!.id, publicId: created.body.publicId as string, type: 'webhook' };
    const events = new OutboxIncidentEvents(database.sql);
    const publish = async (n: number) => {
      for (let i = 0; i < n; i += 1) {
        await events.publish({
          kind: 'incidentOpened', organizationId: org.user.organizationId, customerId: customer.id, monitorId: i + 1,
          incidentPublicId: `${label}-${i}`, occurredAt: new Date(), summary: `site ${i} is down`, data: {},
        });
      }
      const unrouted = await new SqlDeliveryLedger(database.sql).unroutedEvents(['incidentOpened'], 1000);
      return unrouted.filter((e) => e.organizationId === org.user.organizationId);
    };
    const deliveries = () => database.sql.query<{ event: string; fallback_of: string | null }>(
      'SELECT event, fallback_of FROM notification_deliveries WHERE organization_id = ? ORDER BY created_at', [org.user.organizationId]);
    return { sql: database.sql, org, customer, channel, publish, deliveries };
  }

  it('three routers on each event: every event counted once, two sent, the rest held; three digesters: one digest', async () => {
    const setup = await aSetup('storm-race');
    const storms = new SqlStormLedger(setup.sql);
    const events = await setup.publish(6);
    const at = new Date();
    const route = (event: (typeof events)[number]) => storms.routeGrouped(event, 'incident.opened', [setup.channel], {
      event: 'incident.opened', occurredAt: event.occurredAt, summary: event.summary, incidentId: event.incidentId, monitorId: event.monitorId,
      customerId: event.customerId, data: {},
    }, at, POLICY);
    const verdicts = await Promise.all(events.flatMap((e) => [route(e), route(e), route(e)]));
    expect(verdicts.filter((v) => v === 'sent')).to.have.length(2);
    expect(verdicts.filter((v) => v === 'held')).to.have.length(4);
    expect(verdicts.filter((v) => v === null)).to.have.length(12);
    const [window] = await setup.sql.query<{ events: number }>('SELECT events FROM notification_storm_windows WHERE organization_id = ?', [setup.org.user.organizationId]);
    expect(window!.events).to.equal(6);

    expect(await storms.endedWindows(at, 10).then((ws) => ws.filter((w) => w.organizationId === setup.org.user.organizationId))).to.deep.equal([]);
    const later = new Date(at.getTime() + POLICY.windowMs);
    const [ended] = (await storms.endedWindows(later, 100)).filter((w) => w.organizationId === setup.org.user.organizationId);
    expect(ended!.events).to.have.length(4);
    const message = { event: 'incident.digest' as const, occurredAt: later.toISOString(), summary: '4 more', incidentId: null, monitorId: null, customerId: setup.customer.id, data: {} };
    const digested = await Promise.all([1, 2, 3].map(() => storms.digest(ended!, [{ channel: setup.channel, message }], later)));
    expect(digested.filter(Boolean)).to.have.length(1);
    expect((await setup.deliveries()).map((d) => d.event)).to.deep.equal(['incident.opened', 'incident.opened', 'incident.digest']);
    expect((await storms.endedWindows(later, 100)).filter((w) => w.organizationId === setup.org.user.organizationId)).to.deep.equal([]);
  });

  it('a digest of a window partly digested by another worker writes nothing (its list would be wrong)', async () => {
    const setup = await aSetup('storm-partial');
    const storms = new SqlStormLedger(setup.sql);
    const at = new Date();
    for (const event of await setup.publish(4)) {
      await storms.routeGrouped(event, 'incident.opened', [setup.channel], {
        event: 'incident.opened', occurredAt: event.occurredAt, summary: event.summary, incidentId: event.incidentId, monitorId: event.monitorId,
        customerId: event.customerId, data: {},
      }, at, { alone: 0, windowMs: 1_000 });
    }
    const later = new Date(at.getTime() + 1_000);
    const [window] = (await storms.endedWindows(later, 100)).filter((w) => w.organizationId === setup.org.user.organizationId);
    const message = { event: 'incident.digest' as const, occurredAt: later.toISOString(), summary: 's', incidentId: null, monitorId: null, customerId: setup.customer.id, data: {} };
    expect(await storms.digest({ ...window!, events: window!.events.slice(0, 1) }, [{ channel: setup.channel, message }], later)).to.equal(true);
    expect(await storms.digest(window!, [{ channel: setup.channel, message }], later)).to.equal(false);
    const [rest] = (await storms.endedWindows(later, 100)).filter((w) => w.organizationId === setup.org.user.organizationId);
    expect(rest!.events).to.have.length(3);
  });

  it('racing fallbacks and announcements write one copy and one channel.failing', async () => {
    const setup = await aSetup('fallback-race');
    const health = new SqlChannelHealthLedger(setup.sql);
    const created = await api('POST', '/api/notification-channels', {
      token: setup.org.token, body: { name: 'noc', type: 'email', config: { recipients: ['noc@example.com'] }, events: ['maintenance.ended'], isDefault: true },
    });
    const [row] = await setup.sql.query<{ id: number }>('SELECT id FROM notification_channels WHERE public_id = ?', [created.body.publicId]);
    const target = { id: row!.id, publicId: created.body.publicId as string, type: 'email' };
    const [event] = await setup.publish(1);
    await new SqlDeliveryLedger(setup.sql).route(event!, [setup.channel], {
      event: 'incident.opened', occurredAt: event!.occurredAt, summary: 's', incidentId: null, monitorId: null, customerId: null, data: {},
    }, new Date());
    await setup.sql.query(`UPDATE notification_deliveries SET status = 'failed', fallback_due = true WHERE channel_public_id = ?`, [setup.channel.publicId]);
    await setup.sql.query('UPDATE notification_channels SET consecutive_failures = 3 WHERE id = ?', [setup.channel.id]);

    const [due] = (await health.fallbacksDue(1000)).filter((d) => d.organizationId === setup.org.user.organizationId);
    expect(due!.channelId).to.equal(setup.channel.id);
    expect((await Promise.all([1, 2, 3].map(() => health.fallBack(due!, target, new Date())))).filter(Boolean)).to.have.length(1);
    const [failing] = (await health.failingUnannounced(3, 1000)).filter((c) => c.organizationId === setup.org.user.organizationId);
    const message = channelFailingMessage(failing!, failing!, new Date());
    expect((await Promise.all([1, 2, 3].map(() => health.announceFailing(failing!, 3, target, message, new Date()))))
      .filter(Boolean)).to.have.length(1);
    const rows = await setup.deliveries();
    expect(rows.map((d) => d.event)).to.deep.equal(['incident.opened', 'incident.opened', 'channel.failing']);
    expect(rows[1]!.fallback_of).to.be.a('string');
    expect((await health.failingUnannounced(3, 1000)).filter((c) => c.organizationId === setup.org.user.organizationId)).to.deep.equal([]);
  });
});
