import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { aWebsite } from '../../../support/monitoring-fixtures';
import { testServer } from '../../../support/test-server';
import { RouteOutboxEvents } from '../../../../src/application/notifications/route-outbox-events';
import { FallBackFromFailingChannels } from '../../../../src/application/notifications/fall-back-from-failing-channels';
import { sql } from '../../../../src/infrastructure/persistence/sql';

interface Delivery {
  id: string;
  channelId: string;
  channelType: string;
  event: string;
  incidentId: string | null;
  customerId: number | null;
  fallbackOf: string | null;
  fallbackId: string | null;
}

/**
 * GET /api/notification-deliveries as every kind of caller, over deliveries routed by the real
 * ledger: an incident of a customer is told through the organization's channels and the customer's
 * own. A customer-scoped caller (token or bound user) sees the deliveries through its customer's
 * channels only, never the organization's (whose ids and types it cannot read) nor another
 * customer's; organization-wide callers see them all.
 */
describe('http: GET /api/notification-deliveries (what each scope sees)', function () {
  this.timeout(60_000);
  let callers: CallerSet;
  let orgChannel: Record<string, any>;
  let orgDefault: Record<string, any>;
  let customerChannel: Record<string, any>;
  let otherChannel: Record<string, any>;
  let incident: string;
  let otherIncident: string;

  const channel = async (body: Record<string, unknown>) => {
    const created = await api('POST', '/api/notification-channels', {
      token: callers.admin,
      body: { type: 'webhook', config: { url: `https://hooks.deliveries-fixture.com/${Math.random().toString(36).slice(2)}` }, ...body },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body as Record<string, any>;
  };
  const anIncident = async (monitorId: string, title: string) => {
    const created = await api('POST', '/api/incidents', { token: callers.admin, body: { monitorId, title } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body.publicId as string;
  };
  /** Routes the outbox (as the notification worker's routing round does) until nothing is left. */
  const route = async () => {
    const routing = (await testServer()).container.get(RouteOutboxEvents);
    while ((await routing.execute()) > 0);
  };
  const list = async (token: string, query: Record<string, string> = {}) => {
    const response = await api('GET', '/api/notification-deliveries', { token, query: { perPage: '200', ...query } });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body as { items: Delivery[]; total: number };
  };
  const channelsOf = (page: { items: Delivery[] }) => [...new Set(page.items.map((d) => d.channelId))].sort();

  before(async () => {
    callers = await aCallerSet();
    orgChannel = await channel({ name: 'Agency on call' });
    orgDefault = await channel({ name: 'Agency default', isDefault: true, events: ['slo.burning'] });
    customerChannel = await channel({ name: 'Customer hook', customerId: callers.customer.id });
    otherChannel = await channel({ name: 'Other customer hook', customerId: callers.otherCustomer.id });
    const site = await aWebsite(callers.admin, { customerId: callers.customer.id });
    const otherSite = await aWebsite(callers.admin, { customerId: callers.otherCustomer.id });
    incident = await anIncident(site.publicId, 'Shop down');
    otherIncident = await anIncident(otherSite.publicId, 'Blog down');
    await route();
    // A manual alert about the customer goes to the organization's channels and the customer's.
    const alert = await api('POST', '/api/notifications/send-alert', {
      token: callers.admin,
      body: { title: 'Maintenance tonight', customerId: callers.customer.id },
    });
    expect(alert.status, JSON.stringify(alert.body)).to.be.within(200, 202);
  });

  it("shows organization-wide callers every channel's deliveries of an incident, the organization's included", async () => {
    for (const token of [callers.admin, callers.orgToken, callers.readonly]) {
      const page = await list(token, { incidentId: incident });
      expect(channelsOf(page)).to.deep.equal([orgChannel.publicId, customerChannel.publicId].sort());
      expect(page.total).to.equal(page.items.length);
      expect(page.items.map((d) => [d.incidentId, d.customerId])).to.deep.equal(page.items.map(() => [incident, callers.customer.id]));
      const other = await list(token, { incidentId: otherIncident });
      expect(channelsOf(other)).to.deep.equal([orgChannel.publicId, otherChannel.publicId].sort());
    }
  });

  it("shows a customer-scoped token and a customer-bound user only the deliveries through their customer's channels", async () => {
    for (const token of [callers.customerToken, callers.customerUser]) {
      const all = await list(token);
      expect(channelsOf(all), 'no delivery of the organization or of another customer').to.deep.equal([customerChannel.publicId]);
      expect(all.total, 'the total counts what the caller may see').to.equal(all.items.length);
      expect(all.items.map((d) => d.event).sort()).to.deep.equal(['alert.manual', 'incident.opened']);
      expect(all.items.map((d) => d.channelType)).to.deep.equal(['webhook', 'webhook']);

      const ofIncident = await list(token, { incidentId: incident });
      expect(ofIncident.items.map((d) => [d.channelId, d.incidentId])).to.deep.equal([[customerChannel.publicId, incident]]);
      expect(ofIncident.total).to.equal(1);
      // Another customer's incident: nothing, not even through the organization's channels.
      expect(await list(token, { incidentId: otherIncident })).to.deep.include({ items: [], total: 0 });
      // Paging counts the same rows: one per page, two in all.
      const first = await list(token, { perPage: '1', page: '1' });
      const second = await list(token, { perPage: '1', page: '2' });
      expect([first.total, second.total]).to.deep.equal([2, 2]);
      expect([...first.items, ...second.items].map((d) => d.channelId)).to.deep.equal([customerChannel.publicId, customerChannel.publicId]);
    }
  });

  it("answers 404 channelNotFound to a customer-scoped caller naming the organization's or another customer's channel", async () => {
    for (const token of [callers.customerToken, callers.customerUser]) {
      for (const hidden of [orgChannel, otherChannel, orgDefault]) {
        expectError(await api('GET', `/api/notification-channels/${hidden.publicId}`, { token }), 404, 'channelNotFound');
        expectError(
          await api('GET', '/api/notification-deliveries', { token, query: { channelId: hidden.publicId } }),
          404,
          'channelNotFound',
        );
      }
      const own = await list(token, { channelId: customerChannel.publicId });
      expect(channelsOf(own)).to.deep.equal([customerChannel.publicId]);
    }
  });

  it("shows the customer its monitor's override of the organization's channel, its channel's tests, and keeps them once the channel is deleted", async () => {
    const site = await aWebsite(callers.admin, { customerId: callers.customer.id });
    // An override of the organization's channel for the customer's monitor is the customer's channel (it reads it).
    const override = await channel({ name: 'Shop override', websiteId: site.publicId, sourceChannelId: orgChannel.publicId });
    expect((await api('GET', `/api/notification-channels/${override.publicId}`, { token: callers.customerToken })).status).to.equal(200);
    const overridden = await anIncident(site.publicId, 'Shop override down');
    await route();
    const byOrganization = await list(callers.admin, { incidentId: overridden });
    expect(channelsOf(byOrganization)).to.deep.equal([override.publicId, customerChannel.publicId].sort());
    for (const token of [callers.customerToken, callers.customerUser]) {
      expect(channelsOf(await list(token, { incidentId: overridden }))).to.deep.equal([override.publicId, customerChannel.publicId].sort());
    }

    // A channel the customer made and tested: the test is listed.
    const made = await api('POST', '/api/notification-channels', {
      token: callers.customerToken,
      body: { name: 'Mine', type: 'webhook', config: { url: 'https://hooks.deliveries-fixture.com/mine' } },
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const tested = await api('POST', `/api/notification-channels/${made.body.publicId}/test`, { token: callers.customerToken });
    expect(tested.status, JSON.stringify(tested.body)).to.equal(200);
    const seen = await list(callers.customerUser, { channelId: made.body.publicId });
    expect(seen.items.map((d) => [d.id, d.event, d.customerId])).to.deep.equal([[tested.body.id, 'test', callers.customer.id]]);
    // Deleted, its deliveries stay the customer's history.
    expect((await api('DELETE', `/api/notification-channels/${made.body.publicId}`, { token: callers.customerToken })).status).to.be.oneOf([
      200, 204,
    ]);
    for (const token of [callers.customerToken, callers.customerUser]) {
      expect((await list(token)).items.map((d) => d.id)).to.include(tested.body.id);
    }
    // The organization's channel test stays the organization's.
    const orgTest = await api('POST', `/api/notification-channels/${orgChannel.publicId}/test`, { token: callers.admin });
    expect(orgTest.status, JSON.stringify(orgTest.body)).to.equal(200);
    expect((await list(callers.admin, { channelId: orgChannel.publicId })).items.map((d) => d.id)).to.include(orgTest.body.id);
    expect((await list(callers.customerToken)).items.map((d) => d.id)).not.to.include(orgTest.body.id);
  });

  it("keeps a fallback to the organization's default channel out of the customer's view, its id included", async () => {
    const [own] = (await list(callers.customerToken, { incidentId: incident })).items;
    const { database } = await testServer();
    // The customer's channel failed for good (as the deliverer records it when a channel keeps refusing).
    await database.sql.query(
      sql`UPDATE notification_deliveries SET status = 'failed', failed_at = now(), last_error = 'Answered 410', fallback_due = true WHERE id = ${own!.id}::uuid`,
    );
    await (await testServer()).container.get(FallBackFromFailingChannels).execute();

    const byOrganization = await list(callers.admin, { incidentId: incident });
    const fallback = byOrganization.items.find((d) => d.fallbackOf === own!.id);
    expect(fallback, 'the organization sees the fallback').to.include({ channelId: orgDefault.publicId });
    expect(byOrganization.items.find((d) => d.id === own!.id)?.fallbackId).to.equal(fallback!.id);

    for (const token of [callers.customerToken, callers.customerUser]) {
      const seen = await list(token, { incidentId: incident });
      expect(seen.items.map((d) => [d.id, d.channelId, d.fallbackOf, d.fallbackId])).to.deep.equal([
        [own!.id, customerChannel.publicId, null, null],
      ]);
      expect(seen.total).to.equal(1);
    }
  });
});
