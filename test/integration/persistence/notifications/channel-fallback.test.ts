import { poolTx } from '../../../support/pool-transaction';
import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken } from '../../../support/identity-fixtures';
import { randomUUID } from 'node:crypto';
import { inJobContext } from '../../../support/tenancy-server';
import { codeOf } from '../../../support/expect-app-error';
import { NotificationChannel } from '../../../../src/domain/notifications/notification-channel';
import { NOTIFICATION_CHANNEL_REPOSITORY, type NotificationChannelRepository } from '../../../../src/application/notifications/ports';
import { aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';
import { WebhookReceiver } from '../../../support/peers/webhook-receiver';
import { OutboxIncidentEvents } from '../../../support/outbox-events';
import { standalone } from '../../../support/unit-of-work';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const HOOK_HOST = 'hooks.fallback-fixture.com';
let counter = 0;

/**
 * A channel that keeps failing, through HTTP, the real ledger and workers, and loopback receivers:
 * its failed deliveries reach the organization's default channel, it turns failing (in the API,
 * and announced once to the default channel), and a delivered message clears it.
 */
describe('the fallback channel (ledger, workers, loopback receivers)', () => {
  const receiver = new WebhookReceiver(HOOK_HOST);
  let service: DeliveryService;

  before(async () => {
    await receiver.start();
    service = await aDeliveryService([HOOK_HOST], { NOTIFY_MAX_ATTEMPTS: '2', NOTIFY_CHANNEL_FAILING_AFTER: '2' });
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await receiver.stop();
  });

  async function aSetup(label: string) {
    const org = await anOrganization(label);
    const customer = await aMonitoredCustomer(org.token);
    const paths = { primary: `/${label}-primary-${++counter}`, fallback: `/${label}-default-${counter}` };
    receiver.answer(paths.primary, ...Array.from({ length: 50 }, () => ({ status: 500 })));
    const primary = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'on-call hook', type: 'webhook', config: { url: receiver.url(paths.primary) } },
    });
    expect(primary.status, JSON.stringify(primary.body)).to.equal(201);
    let n = 0;
    const anIncident = (kind: 'incidentOpened' | 'incidentResolved' = 'incidentOpened') =>
      new OutboxIncidentEvents(standalone(service.app.database.sql)).publish({
        kind,
        organizationId: org.user.organizationId,
        customerId: customer.id,
        monitorId: 0,
        incidentPublicId: `${label}-inc-${++n}`,
        occurredAt: new Date(),
        summary: `shop ${n} ${kind === 'incidentOpened' ? 'is down' : 'recovered'}`,
        data: {},
      });
    const channel = async () => (await api('GET', `/api/notification-channels/${primary.body.publicId}`, { token: org.token })).body;
    const deliveriesOf = async (publicId: string) =>
      (await api('GET', `/api/notification-deliveries?channelId=${publicId}`, { token: org.token })).body.items as Array<
        Record<string, any>
      >;
    return {
      org,
      customer,
      paths,
      primary: primary.body,
      anIncident,
      channel,
      deliveriesOf,
      at: (path: string) => receiver.at(path).map((r) => JSON.parse(r.body)),
    };
  }

  it('a receiver answering 500 forever: the default channel gets each failed alert and one channel.failing; a later success clears it', async () => {
    const setup = await aSetup('fallback');
    // The default channel is for emergencies only: it lists no incident events of its own.
    const byDefault = await api('POST', '/api/notification-channels', {
      token: setup.org.token,
      body: {
        name: 'noc',
        type: 'webhook',
        config: { url: receiver.url(setup.paths.fallback) },
        events: ['maintenance.started'],
        isDefault: true,
      },
    });
    expect(byDefault.status, JSON.stringify(byDefault.body)).to.equal(201);
    expect(byDefault.body.isDefault).to.equal(true);
    service.worker('fallback-a');

    await setup.anIncident();
    await waitFor(() => setup.at(setup.paths.fallback).length >= 2, { what: 'the first fallback and the announcement' });
    expect(receiver.at(setup.paths.primary), 'two attempts at the primary').to.have.length(2);
    // Health follows the attempts: two failed attempts (the threshold here) make the channel failing at once.
    expect((await setup.channel()).health).to.include({
      status: 'failing',
      consecutiveFailures: 2,
      lastFailureReason: 'Answered 500 (after 2 attempts)',
    });

    await setup.anIncident();
    await setup.anIncident();
    await waitFor(() => setup.at(setup.paths.fallback).filter((b) => b.event === 'incident.opened').length >= 3, {
      what: 'the other fallbacks',
    });
    const received = setup.at(setup.paths.fallback);
    expect(
      received
        .filter((b) => b.event === 'incident.opened')
        .map((b) => b.summary)
        .sort(),
    ).to.deep.equal(['shop 1 is down', 'shop 2 is down', 'shop 3 is down']);
    const announcements = received.filter((b) => b.event === 'channel.failing');
    expect(announcements).to.have.length(1);
    expect(announcements[0].summary).to.match(
      /^Notification channel "on-call hook" is failing: 2 attempts in a row failed \(last: Answered 500/,
    );
    expect(announcements[0].data).to.include({ channelId: setup.primary.publicId, consecutiveFailures: 2 });

    await waitFor(async () => (await setup.deliveriesOf(setup.primary.publicId)).every((d) => d.status === 'failed'), {
      what: 'every attempt made',
    });
    const failing = await setup.channel();
    expect(failing.health).to.include({ status: 'failing', consecutiveFailures: 6 });
    expect(failing.health.failingSince).to.be.a('string');
    expect(failing.problems).to.deep.equal([
      {
        code: 'channelFailing',
        since: failing.health.failingSince,
        message:
          "6 attempts in a row failed (they are sent to the organization's default channel, if it has one); last: Answered 500 (after 2 attempts)",
      },
    ]);
    // The ledger links each failed delivery and its fallback, both ways.
    const failed = await setup.deliveriesOf(setup.primary.publicId);
    const copies = await setup.deliveriesOf(byDefault.body.publicId);
    expect(failed.map((d) => d.status)).to.deep.equal(['failed', 'failed', 'failed']);
    for (const d of failed) {
      const copy = copies.find((c) => c.id === d.fallbackId);
      expect(copy, `the fallback of ${d.id}`).to.deep.include({
        fallbackOf: d.id,
        event: 'incident.opened',
        status: 'delivered',
        incidentId: d.incidentId,
      });
    }
    // Both channels are the organization's: the incident's customer sees neither the failed deliveries nor their fallbacks.
    const theirs = await api('GET', `/api/notification-deliveries?incidentId=${failed[0]!.incidentId}`, {
      token: await aCustomerToken(setup.org.token, setup.customer.id),
    });
    expect(theirs.body).to.deep.include({ items: [], total: 0 });
    const ids = receiver.at(setup.paths.fallback).map((r) => r.headers['x-webhook-id']);
    expect(ids).to.include.members(failed.map((d) => d.fallbackId));

    receiver.answer(setup.paths.primary);
    await setup.anIncident('incidentResolved');
    await waitFor(async () => (await setup.channel()).health.status === 'healthy', { what: 'the channel healthy again' });
    const healed = await setup.channel();
    expect(healed.health).to.include({ consecutiveFailures: 0, failingSince: null });
    expect(healed.health.lastSuccessAt).to.be.a('string');
    expect(healed.problems).to.deep.equal([]);
    expect(setup.at(setup.paths.fallback), 'nothing more reached the default channel').to.have.length(received.length);
  });

  it('without a default channel the problem still shows in the API, and nothing is sent anywhere else', async () => {
    const setup = await aSetup('no-default');
    service.worker('fallback-b');
    await setup.anIncident();
    await setup.anIncident();
    await waitFor(async () => (await setup.channel()).health.status === 'failing', { what: 'the channel failing' });
    expect((await setup.channel()).problems.map((p: { code: string }) => p.code)).to.deep.equal(['channelFailing']);
    const [outbox] = await service.app.database.sql.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM notification_deliveries WHERE organization_id = ${setup.org.user.organizationId} AND channel_public_id <> ${setup.primary.publicId}`,
    );
    expect(outbox!.n).to.equal(0);
    expect(receiver.at(setup.paths.fallback)).to.deep.equal([]);
  });

  it('a default made by another caller in the meantime: the index keeps one, and the loser is told conflict (409), not a 500', async () => {
    const org = await anOrganization('default-race');
    const first = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'noc', type: 'email', config: { recipients: ['noc@example.com'] }, isDefault: true },
    });
    expect(first.status).to.equal(201);
    // What a concurrent caller's transaction writes after this one read "no default": a second default, without releasing the first.
    const code = await inJobContext(async (get) => {
      const channels = get<NotificationChannelRepository>(NOTIFICATION_CHANNEL_REPOSITORY);
      const rival = new NotificationChannel({
        publicId: randomUUID(),
        organizationId: org.user.organizationId,
        scope: { customerId: null, monitorId: null, sourceChannelId: null },
        name: 'rival',
        type: 'email',
        config: { recipients: ['rival@example.com'] },
        isDefault: true,
        now: new Date(),
      });
      return codeOf(channels.add(rival, poolTx()));
    });
    expect(code).to.equal('conflict');
    const listed = await api('GET', '/api/notification-channels', { token: org.token });
    expect(listed.body.items.map((c: { name: string; isDefault: boolean }) => [c.name, c.isDefault])).to.deep.equal([['noc', true]]);
  });

  it('one default channel per organization, moved by making another the default; only organization channels can be it', async () => {
    const setup = await aSetup('default-move');
    const other = await api('POST', '/api/notification-channels', {
      token: setup.org.token,
      body: { name: 'mail', type: 'email', config: { recipients: ['noc@example.com'] }, isDefault: true },
    });
    expect(other.body.isDefault).to.equal(true);
    const moved = await api('PATCH', `/api/notification-channels/${setup.primary.publicId}`, {
      token: setup.org.token,
      body: { isDefault: true },
    });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(moved.body.isDefault).to.equal(true);
    expect((await api('GET', `/api/notification-channels/${other.body.publicId}`, { token: setup.org.token })).body.isDefault).to.equal(
      false,
    );
    const customers = await api('POST', '/api/notification-channels', {
      token: setup.org.token,
      body: {
        name: 'theirs',
        type: 'email',
        config: { recipients: ['it@customer.example'] },
        customerId: setup.customer.id,
        isDefault: true,
      },
    });
    expectError(customers, 400, 'invalidRequestBody');
    expect(customers.body.data).to.include({ field: '/isDefault', reason: 'organizationChannelsOnly' });
  });
});
