import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { api, apiAt, expectError } from '../../../support/http-client';
import { aCustomerToken } from '../../../support/identity-fixtures';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer, aWebsite, storedMonitor } from '../../../support/monitoring-fixtures';
import { testCertificates } from '../../../support/peers/certificates';
import { SmtpPeer } from '../../../support/peers/smtp-peer';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';
import { WebhookReceiver } from '../../../support/peers/webhook-receiver';
import type { RunningApplication } from '../../../../src/main/application';
import { RouteOutboxEvents } from '../../../../src/application/notifications/route-outbox-events';
import { OutboxIncidentEvents } from '../../../support/outbox-events';
import { OutboxMaintenanceEvents } from '../../../support/outbox-events';
import { standalone } from '../../../support/unit-of-work';
import { sql } from '../../../../src/infrastructure/persistence/sql';
import { DELIVERY_LEDGER, type DeliveryLedger } from '../../../../src/application/notifications/delivery-ports';

const HOOK_HOST = 'hooks.delivery-fixture.com';
const MAIL_HOST = 'mail.delivery-fixture.com';

let pathCounter = 0;
const uniquePath = (label: string) => `/${label}-${++pathCounter}-${Date.now()}`;

/**
 * The deliverer against real loopback receivers (an HTTP server, smtp-server) through the real
 * target policy: the receivers' public-looking names resolve to 127.0.0.1 in the test DNS and
 * CHECK_PRIVATE_ALLOWLIST admits loopback, as an operator would for a private network.
 */
describe('notification delivery ledger (loopback receivers)', () => {
  const receiver = new WebhookReceiver(HOOK_HOST);
  const smtp = new SmtpPeer(testCertificates().selfSigned, { starttls: false });
  let service: DeliveryService;
  let app: RunningApplication;
  const aWorker = (owner: string, autoStart = true) => service.worker(owner, autoStart);

  /** An organization with a customer and a monitor, and a channel of the organization. */
  async function aSetup(label: string, channel: Record<string, unknown>) {
    const org = await anOrganization(label);
    const customer = await aMonitoredCustomer(org.token);
    const website = await aWebsite().forCustomer(customer.id).create(org.token);
    const monitor = await storedMonitor(website.publicId);
    const created = await api('POST', '/api/notification-channels', { token: org.token, body: { name: label, ...channel } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return { org, customer, website, monitorId: Number(monitor.id), channel: created.body };
  }

  /** An incident event as the alert rules queue it (the real outbox adapter). */
  async function anIncidentOpened(setup: Awaited<ReturnType<typeof aSetup>>, incidentId = `inc-${Date.now()}-${++pathCounter}`) {
    await new OutboxIncidentEvents(standalone(app.database.sql)).publish({
      kind: 'incidentOpened',
      organizationId: setup.org.user.organizationId,
      customerId: setup.customer.id,
      monitorId: setup.monitorId,
      incidentPublicId: incidentId,
      occurredAt: new Date('2026-11-23T10:00:00Z'),
      summary: 'www.monitor-fixture.com is down',
      // As the alert rules publish it: the monitor's public id in the data.
      data: { statusCode: 503, monitorPublicId: setup.website.publicId },
    });
    return incidentId;
  }

  const deliveriesOf = (channelPublicId: string) =>
    app.database.sql.query<Record<string, any>>(
      sql`SELECT * FROM notification_deliveries WHERE channel_public_id = ${channelPublicId} ORDER BY created_at`,
    );
  const attemptsOf = (deliveryId: string) =>
    app.database.sql.query<Record<string, any>>(
      sql`SELECT * FROM notification_delivery_attempts WHERE delivery_id = ${deliveryId} ORDER BY attempt`,
    );

  before(async () => {
    await Promise.all([receiver.start(), smtp.start()]);
    service = await aDeliveryService([HOOK_HOST, MAIL_HOST], {
      // no storm grouping here: these tests count one message per event (storm-digests.test.ts covers grouping)
      NOTIFY_MAX_ATTEMPTS: '4',
      NOTIFY_DIGEST_WINDOW_SECONDS: '0',
      SMTP_URL: `smtp://user:secret@${MAIL_HOST}:${smtp.port}`,
      SMTP_FROM: 'alerts@platform.example',
    });
    app = service.app;
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await Promise.all([receiver.stop(), smtp.stop()]);
  });

  it('retries a webhook answered 500 twice: one signed delivery, the same X-Webhook-Id each time, every attempt in the ledger', async () => {
    const path = uniquePath('hook');
    receiver.answer(path, { status: 500 }, { status: 500 });
    const setup = await aSetup('deliver-webhook', {
      type: 'webhook',
      config: { url: receiver.url(path), headers: { Authorization: 'Bearer abc' } },
    });
    const incidentId = await anIncidentOpened(setup);
    aWorker('worker-a');

    const delivery = await waitFor(
      async () => {
        const rows = await deliveriesOf(setup.channel.publicId);
        return rows[0]?.status === 'delivered' ? rows[0] : null;
      },
      { what: 'the webhook delivered' },
    );
    const requests = receiver.at(path);
    expect(requests).to.have.length(3);
    expect(new Set(requests.map((r) => r.headers['x-webhook-id']))).to.deep.equal(new Set([delivery!.id]));
    for (const request of requests) {
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['x-webhook-signature']))!;
      expect(v1).to.equal(createHmac('sha256', setup.channel.signingSecret).update(`${t}.${request.body}`).digest('hex'));
      expect(request.headers.authorization).to.equal('Bearer abc');
    }
    expect(JSON.parse(requests[2]!.body)).to.deep.equal({
      id: delivery!.id,
      event: 'incident.opened',
      occurredAt: '2026-11-23T10:00:00.000Z',
      summary: 'www.monitor-fixture.com is down',
      incident: { id: incidentId },
      monitor: { id: setup.website.publicId },
      customer: { id: setup.customer.id },
      data: { statusCode: 503, monitorPublicId: setup.website.publicId },
    });
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map((a) => [a.attempt, a.status_code, a.outcome, a.response_excerpt])).to.deep.equal([
      [1, 500, 'retry', 'failure 500'],
      [2, 500, 'retry', 'failure 500'],
      [3, 200, 'delivered', 'ok'],
    ]);
    expect(attempts.every((a) => a.latency_ms >= 0 && a.at instanceof Date)).to.equal(true);
    expect(delivery).to.include({ attempts: 3, status: 'delivered' });
  });

  it('delivers a maintenance start, as the announcer queues it, to a channel that asked for it, and not to one that did not', async () => {
    const wanted = uniquePath('maintenance');
    const unwanted = uniquePath('no-maintenance');
    const setup = await aSetup('deliver-maintenance', {
      type: 'webhook',
      config: { url: receiver.url(wanted) },
      events: ['maintenance.started'],
    });
    const other = await api('POST', '/api/notification-channels', {
      token: setup.org.token,
      body: { name: 'incidents only', type: 'webhook', config: { url: receiver.url(unwanted) }, events: ['incident.opened'] },
    });
    expect(other.status).to.equal(201);
    await new OutboxMaintenanceEvents(standalone(app.database.sql)).publish({
      kind: 'maintenance.started',
      organizationId: setup.org.user.organizationId,
      customerId: setup.customer.id,
      windowId: 'mw-1',
      title: 'Database upgrade',
      occurrence: { start: new Date('2026-11-23T02:00:00Z'), end: new Date('2026-11-23T03:00:00Z') },
      targets: [{ type: 'website', id: setup.website.publicId }],
      occurredAt: new Date('2026-11-23T02:00:00Z'),
    });
    aWorker('worker-maintenance');

    await waitFor(() => receiver.at(wanted).length === 1, { what: 'the maintenance webhook' });
    const body = JSON.parse(receiver.at(wanted)[0]!.body);
    expect(body).to.include({
      event: 'maintenance.started',
      summary: 'Maintenance started: Database upgrade',
      occurredAt: '2026-11-23T02:00:00.000Z',
    });
    expect(body.customer).to.deep.equal({ id: setup.customer.id });
    expect(body.data).to.deep.include({ maintenanceWindowId: 'mw-1', title: 'Database upgrade', startTime: '2026-11-23T02:00:00.000Z' });
    expect(await deliveriesOf(other.body.publicId)).to.deep.equal([]);
    expect(receiver.at(unwanted)).to.deep.equal([]);
  });

  it('honours Retry-After: the second try waits at least what the receiver asked', async () => {
    const path = uniquePath('retry-after');
    receiver.answer(path, { status: 429, headers: { 'retry-after': '1' } });
    const setup = await aSetup('deliver-retry-after', { type: 'webhook', config: { url: receiver.url(path) } });
    await anIncidentOpened(setup);
    aWorker('worker-ra');
    const delivery = await waitFor(
      async () => {
        const rows = await deliveriesOf(setup.channel.publicId);
        return rows[0]?.status === 'delivered' ? rows[0] : null;
      },
      { what: 'the delivery after Retry-After' },
    );
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map((a) => a.status_code)).to.deep.equal([429, 200]);
    // with a 20 ms back-off base, only the receiver's Retry-After explains a second of waiting
    expect(attempts[1]!.at.getTime() - attempts[0]!.at.getTime()).to.be.at.least(1000);
  });

  it('gives up after NOTIFY_MAX_ATTEMPTS and at once on a refusal (4xx), recording why', async () => {
    const down = uniquePath('down');
    const refused = uniquePath('refused');
    receiver.answer(down, ...Array.from({ length: 10 }, () => ({ status: 503 })));
    receiver.answer(refused, { status: 410 });
    const a = await aSetup('deliver-down', { type: 'webhook', config: { url: receiver.url(down) } });
    const b = await aSetup('deliver-refused', { type: 'webhook', config: { url: receiver.url(refused) } });
    await anIncidentOpened(a);
    await anIncidentOpened(b);
    aWorker('worker-f');
    const failed = async (channel: string) => {
      const rows = await deliveriesOf(channel);
      return rows[0]?.status === 'failed' ? rows[0] : null;
    };
    const [first, second] = await Promise.all([waitFor(() => failed(a.channel.publicId)), waitFor(() => failed(b.channel.publicId))]);
    expect(first).to.include({ attempts: 4, last_error: 'Answered 503 (after 4 attempts)' });
    expect(receiver.at(down)).to.have.length(4);
    expect(second).to.include({ attempts: 1, last_error: 'Answered 410' });
    expect(receiver.at(refused)).to.have.length(1);
  });

  it('sends Slack, Discord and Teams the bodies their incoming webhooks accept', async () => {
    const paths = { slack: uniquePath('slack'), discord: uniquePath('discord'), teams: uniquePath('teams') };
    const org = await anOrganization('deliver-chat');
    const customer = await aMonitoredCustomer(org.token);
    for (const [type, path] of Object.entries(paths)) {
      const created = await api('POST', '/api/notification-channels', {
        token: org.token,
        body: { name: type, type, config: { url: receiver.url(path), messagePrefix: type === 'slack' ? '[prod]' : null } },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
    }
    await new OutboxIncidentEvents(standalone(app.database.sql)).publish({
      kind: 'incidentResolved',
      organizationId: org.user.organizationId,
      customerId: customer.id,
      monitorId: 0,
      incidentPublicId: 'inc-chat',
      occurredAt: new Date('2026-11-23T11:00:00Z'),
      summary: 'shop.example.com is up again',
      data: {},
    });
    aWorker('worker-chat');
    await waitFor(() => Object.values(paths).every((p) => receiver.at(p).length === 1), { what: 'three chat messages' });
    const body = (path: string) => JSON.parse(receiver.at(path)[0]!.body);
    const slack = body(paths.slack);
    expect(slack.text).to.equal('[prod] Incident resolved: shop.example.com is up again');
    expect(slack.blocks[0]).to.deep.equal({ type: 'header', text: { type: 'plain_text', text: 'Incident resolved' } });
    const discord = body(paths.discord);
    expect(discord.content).to.equal('Incident resolved: shop.example.com is up again');
    expect(discord.embeds[0]).to.include({
      title: 'Incident resolved',
      description: 'shop.example.com is up again',
      timestamp: '2026-11-23T11:00:00.000Z',
    });
    const teams = body(paths.teams);
    expect(teams).to.include({ '@type': 'MessageCard', title: 'Incident resolved' });
    expect(receiver.at(paths.slack)[0]!.headers['x-webhook-signature']).to.equal(undefined);
  });

  it('e-mails through the platform SMTP_URL when the organization has no server of its own', async () => {
    const setup = await aSetup('deliver-email', { type: 'email', config: { recipients: ['oncall@customer.example'] } });
    await anIncidentOpened(setup);
    const before = smtp.messages.length;
    aWorker('worker-mail');
    await waitFor(async () => (await deliveriesOf(setup.channel.publicId))[0]?.status === 'delivered', { what: 'the e-mail delivered' });
    const mails = smtp.messages.slice(before).filter((m) => m.to.includes('oncall@customer.example'));
    expect(mails).to.have.length(1);
    expect(mails[0]!.raw)
      .to.include('Subject: Incident opened: www.monitor-fixture.com is down')
      .and.include('From: alerts@platform.example');
    const [delivery] = await deliveriesOf(setup.channel.publicId);
    const [attempt] = await attemptsOf(delivery!.id);
    expect(attempt).to.include({ status_code: 250, outcome: 'delivered' });
  });

  it('routes an event once, and a delivery whose worker died (its lease lapsed) is sent once after restart', async () => {
    const path = uniquePath('crash');
    const setup = await aSetup('deliver-crash', { type: 'webhook', config: { url: receiver.url(path) } });
    const incidentId = await anIncidentOpened(setup);
    // Two routers race over the same events: one set of deliveries.
    const route = app.container.get(RouteOutboxEvents);
    await Promise.all([route.execute(), route.execute(), route.execute()]);
    expect(await deliveriesOf(setup.channel.publicId)).to.have.length(1);
    const [outbox] = await app.database.sql.query<Record<string, any>>(
      sql`SELECT routed_at, delivered_at FROM notification_outbox WHERE payload->>'incidentId' = ${incidentId}`,
    );
    expect(outbox!.routed_at).to.be.instanceOf(Date);
    expect(outbox!.delivered_at).to.deep.equal(outbox!.routed_at);
    // A worker claimed the delivery, then died before sending: its lease is in the ledger, nothing was sent.
    const [row] = await deliveriesOf(setup.channel.publicId);
    await app.database.sql.query(
      sql`UPDATE notification_deliveries SET lease_owner = 'dead-worker', lease_until = now() + interval '300 ms' WHERE id = ${row!.id}`,
    );
    const worker = aWorker('worker-restarted', false);
    await worker.runOnce();
    expect(receiver.at(path), 'the lease is still held').to.have.length(0);
    await waitFor(
      async () => {
        await worker.runOnce();
        return receiver.at(path).length > 0;
      },
      { what: 'the delivery after the lease lapsed' },
    );
    await worker.runOnce();
    expect(receiver.at(path)).to.have.length(1);
    expect((await deliveriesOf(setup.channel.publicId))[0]).to.include({ status: 'delivered', attempts: 1 });
  });

  it('two workers never deliver one row twice', async () => {
    const org = await anOrganization('deliver-race');
    const customer = await aMonitoredCustomer(org.token);
    const paths = Array.from({ length: 5 }, () => uniquePath('race'));
    for (const path of paths) {
      const created = await api('POST', '/api/notification-channels', {
        token: org.token,
        body: { name: path, type: 'webhook', config: { url: receiver.url(path) } },
      });
      expect(created.status).to.equal(201);
    }
    const events = new OutboxIncidentEvents(standalone(app.database.sql));
    for (let i = 0; i < 8; i += 1) {
      await events.publish({
        kind: 'incidentOpened',
        organizationId: org.user.organizationId,
        customerId: customer.id,
        monitorId: 0,
        incidentPublicId: `race-${i}`,
        occurredAt: new Date(),
        summary: `down ${i}`,
        data: {},
      });
    }
    const one = aWorker('race-1', false);
    const two = aWorker('race-2', false);
    const expected = paths.length * 8;
    await waitFor(
      async () => {
        await Promise.all([one.runOnce(), two.runOnce(), one.runOnce(), two.runOnce()]);
        return paths.reduce((n, p) => n + receiver.at(p).length, 0) >= expected;
      },
      { what: 'every delivery', timeoutMs: 15_000 },
    );
    await Promise.all([one.runOnce(), two.runOnce()]);
    const ids = paths.flatMap((p) => receiver.at(p).map((r) => String(r.headers['x-webhook-id'])));
    expect(ids).to.have.length(expected);
    expect(new Set(ids).size).to.equal(expected);
  });

  it('answers "was I told, when, and how": GET /api/notification-deliveries per channel and per incident, scoped', async () => {
    const path = uniquePath('read');
    receiver.answer(path, { status: 502 });
    const setup = await aSetup('deliver-read', { type: 'webhook', config: { url: receiver.url(path) } });
    const incidentId = await anIncidentOpened(setup);
    aWorker('worker-read');
    await waitFor(async () => (await deliveriesOf(setup.channel.publicId))[0]?.status === 'delivered', { what: 'the delivery' });

    const byChannel = await api('GET', `/api/notification-deliveries?channelId=${setup.channel.id}`, { token: setup.org.token });
    expect(byChannel.status, JSON.stringify(byChannel.body)).to.equal(200);
    const [item] = byChannel.body.items;
    expect(byChannel.body).to.deep.equal({ items: [item], total: 1, page: 1, perPage: 50 });
    expect(item).to.deep.equal({
      id: item.id,
      channelId: setup.channel.publicId,
      channelType: 'webhook',
      event: 'incident.opened',
      incidentId,
      customerId: setup.customer.id,
      websiteId: setup.monitorId,
      status: 'delivered',
      attempts: [
        {
          attempt: 1,
          at: item.attempts[0].at,
          statusCode: 502,
          outcome: 'retry',
          responseExcerpt: 'failure 502',
          latencyMs: item.attempts[0].latencyMs,
          error: null,
        },
        {
          attempt: 2,
          at: item.attempts[1].at,
          statusCode: 200,
          outcome: 'delivered',
          responseExcerpt: 'ok',
          latencyMs: item.attempts[1].latencyMs,
          error: null,
        },
      ],
      nextAttemptAt: null,
      createdAt: item.createdAt,
      deliveredAt: item.attempts[1].at,
      failedAt: null,
      lastError: null,
      fallbackOf: null,
      fallbackId: null,
    });
    expect(item.id).to.equal(receiver.at(path)[0]!.headers['x-webhook-id']);
    const byIncident = await api('GET', `/api/notification-deliveries?incidentId=${incidentId}`, { token: setup.org.token });
    expect(byIncident.body.items.map((d: { id: string }) => d.id)).to.deep.equal([item.id]);

    // the channel is the organization's: the incident's customer sees none of its deliveries (a customer sees
    // those through its own channels, http/notifications/notification-deliveries.test.ts); another customer none either
    const own = await api('GET', `/api/notification-deliveries?incidentId=${incidentId}`, {
      token: await aCustomerToken(setup.org.token, setup.customer.id),
    });
    expect(own.body).to.deep.include({ items: [], total: 0 });
    const other = await aMonitoredCustomer(setup.org.token);
    const otherToken = await aCustomerToken(setup.org.token, other.id);
    expect((await api('GET', `/api/notification-deliveries?incidentId=${incidentId}`, { token: otherToken })).body).to.deep.equal({
      items: [],
      total: 0,
      page: 1,
      perPage: 50,
    });
    // a channel out of scope is 404, a malformed id 400
    expectError(
      await api('GET', `/api/notification-deliveries?channelId=${setup.channel.publicId}`, { token: otherToken }),
      404,
      'channelNotFound',
    );
    const stranger = await anOrganization('deliver-read-other');
    expectError(
      await api('GET', `/api/notification-deliveries?channelId=${setup.channel.id}`, { token: stranger.token }),
      404,
      'channelNotFound',
    );
    expectError(await api('GET', '/api/notification-deliveries?channelId=not-an-id', { token: setup.org.token }), 400, 'invalidChannelId');
  });

  it("e-mails through the organization's own SMTP server when it set one", async () => {
    const setup = await aSetup('deliver-org-mail', { type: 'email', config: { recipients: ['noc@customer.example'] } });
    const smtpSet = await apiAt(app.url, 'PATCH', '/api/organization/smtp', {
      token: setup.org.token,
      body: { host: MAIL_HOST, port: smtp.port, security: 'none', username: 'user', password: 'secret', fromAddress: 'noc@org.example' },
    });
    expect(smtpSet.status, JSON.stringify(smtpSet.body)).to.equal(200);
    await anIncidentOpened(setup);
    const before = smtp.messages.length;
    aWorker('worker-org-mail');
    await waitFor(async () => (await deliveriesOf(setup.channel.publicId))[0]?.status === 'delivered', { what: 'the e-mail delivered' });
    const mails = smtp.messages.slice(before).filter((m) => m.to.includes('noc@customer.example'));
    expect(mails).to.have.length(1);
    expect(mails[0]!.raw).to.include('From: noc@org.example');
  });

  it('vets the receiver at delivery: a name that resolves to a private address is refused, nothing sent', async () => {
    const setup = await aSetup('deliver-rebind', { type: 'webhook', config: { url: 'http://rebind.monitor-fixture.com/hook' } });
    await anIncidentOpened(setup);
    aWorker('worker-rebind');
    const failed = await waitFor(
      async () => {
        const [row] = await deliveriesOf(setup.channel.publicId);
        return row?.status === 'failed' ? row : null;
      },
      { what: 'the refused delivery' },
    );
    expect(failed).to.include({ attempts: 1 });
    expect(failed!.last_error).to.match(/^rebind\.monitor-fixture\.com is not a public address/);
  });
  // Last in the file: its claims may lease (for a millisecond) rows other tests left pending.
  it('leaves a delivery this process is sending to its send: no claim takes it, its lapsed lease is not due', async () => {
    const setup = await aSetup('deliver-sending-here', { type: 'webhook', config: { url: receiver.url(uniquePath('sending')) } });
    await anIncidentOpened(setup);
    await app.container.get(RouteOutboxEvents).execute();
    const [row] = await deliveriesOf(setup.channel.publicId);
    // Leased by a round still sending it, the lease lapsed long ago: the first row any claim would take.
    const lapsed = new Date('2000-01-01T00:00:00Z');
    await app.database.sql.query(
      sql`UPDATE notification_deliveries SET lease_owner = 'w#1', lease_until = ${lapsed}, next_attempt_at = ${lapsed} WHERE id = ${row!.id}`,
    );
    const ledger = app.container.get<DeliveryLedger>(DELIVERY_LEDGER);
    expect((await ledger.nextDueAt([]))?.toISOString(), 'due: its lease lapsed').to.equal(lapsed.toISOString());
    expect((await ledger.nextDueAt([row!.id]))?.toISOString(), 'not due while sent here').not.to.equal(lapsed.toISOString());
    const claimed = await ledger.claimDue('w#2', new Date(), 1, 1, [row!.id]);
    expect(claimed.map((d) => d.id)).not.to.include(row!.id);
    expect((await deliveriesOf(setup.channel.publicId))[0]).to.include({ lease_owner: 'w#1', status: 'pending' });
    // Not being sent here, it is claimed (the same statement, the control).
    expect((await ledger.claimDue('w#2', new Date(), 1, 1, [])).map((d) => d.id)).to.deep.equal([row!.id]);
  });
});
