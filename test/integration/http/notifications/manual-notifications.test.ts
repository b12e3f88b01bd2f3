import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { api, apiAt, expectError } from '../../../support/http-client';
import { aCustomerToken, aMember } from '../../../support/identity-fixtures';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import { ManualClock } from '../../../support/manual-clock';
import { WebhookReceiver } from '../../../support/peers/webhook-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { waitFor } from '../../../support/wait-for';
import type { RunningApplication } from '../../../../src/main/application';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const HOOK_HOST = 'hooks.manual-alert-fixture.com';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let pathCounter = 0;
const uniquePath = (label: string) => `/${label}-${++pathCounter}-${Date.now()}`;

/**
 * The test button and send-alert through HTTP, the real ledger and a real worker, against a
 * loopback receiver reached through the target policy (its name resolves to 127.0.0.1 in the
 * test DNS; CHECK_PRIVATE_ALLOWLIST admits loopback). The service runs on a clock of its own that
 * follows real time, so the rate-limit test can start at the beginning of a window.
 */
describe('the channel test button and send-alert', () => {
  const receiver = new WebhookReceiver(HOOK_HOST);
  const clock = ManualClock.followingRealTime();
  let service: DeliveryService;
  let app: RunningApplication;

  const call = (method: string, path: string, options: Parameters<typeof apiAt>[3] = {}) => apiAt(app.url, method, path, options);
  const aWorker = (owner: string) => service.worker(owner);
  async function aChannel(token: string, body: Record<string, unknown>): Promise<Record<string, any>> {
    const created = await api('POST', '/api/notification-channels', { token, body: { name: 'On call', ...body } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body;
  }
  const deliveryOf = async (id: string) =>
    (await app.database.sql.query<Record<string, any>>(sql`SELECT * FROM notification_deliveries WHERE id = ${id}`))[0];

  before(async () => {
    await receiver.start();
    service = await aDeliveryService([HOOK_HOST], { NOTIFY_RETRY_MAX_MS: '200' }, { clock });
    app = service.app;
  });
  afterEach(() => service.stopWorkers());
  after(async () => {
    await service?.stop();
    await receiver.stop();
  });

  it('the test button sends one signed webhook saying it is a test, through the ledger: retried after a 500, every attempt listed', async () => {
    const path = uniquePath('test-button');
    receiver.answer(path, { status: 500 });
    const org = await anOrganization('test-button');
    const channel = await aChannel(org.token, { type: 'webhook', config: { url: receiver.url(path) }, events: ['incident.opened'] });

    const queued = await call('POST', `/api/notification-channels/${channel.id}/test`, { token: org.token });
    expect(queued.status, JSON.stringify(queued.body)).to.equal(200);
    // The first attempt is made at once: the button shows what the receiver answered.
    expect(queued.body).to.deep.include({
      id: queued.body.id,
      channelId: channel.publicId,
      channelType: 'webhook',
      event: 'test',
      status: 'retry',
    });
    expect(queued.body.attempt).to.include({ statusCode: 500 });
    expect(queued.body.id).to.match(UUID);
    const listed = await call('GET', `/api/notification-deliveries?channelId=${channel.publicId}`, { token: org.token });
    expect(listed.body.items.map((d: Record<string, unknown>) => [d.id, d.event, d.status])).to.deep.equal([
      [queued.body.id, 'test', 'pending'],
    ]);
    // Health follows the attempts: one failed attempt leaves the channel degraded.
    expect((await call('GET', `/api/notification-channels/${channel.id}`, { token: org.token })).body.health).to.include({
      status: 'degraded',
      consecutiveFailures: 1,
      lastFailureReason: 'Answered 500',
    });

    aWorker('test-button-worker');
    await waitFor(async () => (await deliveryOf(queued.body.id))?.status === 'delivered', { what: 'the test delivered' });
    const requests = receiver.at(path);
    expect(requests).to.have.length(2);
    for (const request of requests) {
      expect(request.headers['x-webhook-id']).to.equal(queued.body.id);
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['x-webhook-signature']))!;
      expect(v1).to.equal(createHmac('sha256', channel.signingSecret).update(`${t}.${request.body}`).digest('hex'));
    }
    const body = JSON.parse(requests[1]!.body);
    expect(body).to.deep.equal({
      id: queued.body.id,
      event: 'test',
      occurredAt: body.occurredAt,
      summary: 'This is a test notification for the channel "On call": no incident happened. If you can read this, the channel works.',
      incident: null,
      monitor: null,
      customer: null,
      data: { test: true, channel: { id: channel.publicId, name: 'On call', type: 'webhook' } },
    });
    const after = await call('GET', `/api/notification-deliveries?channelId=${channel.id}`, { token: org.token });
    const [item] = after.body.items;
    expect(item).to.include({ id: queued.body.id, event: 'test', status: 'delivered', channelType: 'webhook' });
    expect(item.attempts.map((a: Record<string, unknown>) => [a.attempt, a.statusCode, a.outcome])).to.deep.equal([
      [1, 500, 'retry'],
      [2, 200, 'delivered'],
    ]);
    const [outbox] = await app.database.sql.query<Record<string, any>>(
      sql`SELECT o.kind, o.routed_at FROM notification_outbox o JOIN notification_deliveries d ON d.outbox_id = o.id WHERE d.id = ${queued.body.id}`,
    );
    expect(outbox!.kind).to.equal('test');
    expect(outbox!.routed_at).to.be.instanceOf(Date);
  });

  it('the test button is scoped like the channel: its customer may test it, other customers and organizations get 404, read-only users 403', async () => {
    const org = await anOrganization('test-button-scope');
    const customer = await aMonitoredCustomer(org.token);
    const other = await aMonitoredCustomer(org.token);
    const mine = await aChannel(org.token, {
      type: 'webhook',
      config: { url: receiver.url(uniquePath('scope')) },
      customerId: customer.id,
      enabled: false,
    });
    const orgWide = await aChannel(org.token, { type: 'webhook', config: { url: receiver.url(uniquePath('scope-org')) } });
    const customerToken = await aCustomerToken(org.token, customer.id);

    const own = await call('POST', `/api/notification-channels/${mine.publicId}/test`, { token: customerToken });
    expect(own.status, JSON.stringify(own.body)).to.equal(200);
    const seen = await call('GET', `/api/notification-deliveries?channelId=${mine.id}`, { token: customerToken });
    expect(seen.body.items.map((d: { id: string }) => d.id)).to.deep.equal([own.body.id]);

    expectError(
      await call('POST', `/api/notification-channels/${mine.id}/test`, { token: await aCustomerToken(org.token, other.id) }),
      404,
      'channelNotFound',
    );
    expectError(await call('POST', `/api/notification-channels/${orgWide.id}/test`, { token: customerToken }), 404, 'channelNotFound');
    expectError(
      await call('POST', `/api/notification-channels/${mine.id}/test`, { token: (await anOrganization('test-button-stranger')).token }),
      404,
      'channelNotFound',
    );
    expectError(await call('POST', '/api/notification-channels/not-an-id/test', { token: org.token }), 400, 'invalidChannelId');
    const reader = await aMember(org, 'readonly');
    expectError(await call('POST', `/api/notification-channels/${orgWide.id}/test`, { token: reader.token }), 403, 'roleForbidden');

    // a disabled channel is tried all the same: that is how it is checked before it is switched on
    aWorker('test-button-scope-worker');
    await waitFor(async () => (await deliveryOf(own.body.id))?.status === 'delivered', { what: "the disabled channel's test delivered" });
  });

  it('rate-limits the test button per channel: the eleventh in a minute answers 429 with data.retryAfter, other channels go on', async () => {
    const org = await anOrganization('test-button-limit');
    const busy = await aChannel(org.token, { type: 'webhook', config: { url: receiver.url(uniquePath('limit')) } });
    const quiet = await aChannel(org.token, { type: 'webhook', config: { url: receiver.url(uniquePath('limit-other')) } });
    // start at the beginning of a fixed window, so all eleven calls fall into it
    clock.advance(60_000 - (clock.ms % 60_000) + 1);
    for (let i = 0; i < 10; i += 1) {
      expect((await call('POST', `/api/notification-channels/${busy.id}/test`, { token: org.token })).status).to.equal(200);
    }
    const refused = await call('POST', `/api/notification-channels/${busy.id}/test`, { token: org.token });
    expectError(refused, 429, 'rateLimited');
    expect(refused.body.data.retryAfter).to.be.a('number').within(1, 60);
    expect((await call('POST', `/api/notification-channels/${quiet.id}/test`, { token: org.token })).status).to.equal(200);
    const ledger = await call('GET', `/api/notification-deliveries?channelId=${busy.id}`, { token: org.token });
    expect(ledger.body.total).to.equal(10);

    clock.advance(60_000);
    expect((await call('POST', `/api/notification-channels/${busy.id}/test`, { token: org.token })).status).to.equal(200);
  });

  it("send-alert reaches the channels routing picks for alert.manual (the organization's and the customer's), or the ones named", async () => {
    const org = await anOrganization('send-alert');
    const customer = await aMonitoredCustomer(org.token);
    const other = await aMonitoredCustomer(org.token);
    const paths = {
      hook: uniquePath('alert-hook'),
      chat: uniquePath('alert-slack'),
      muted: uniquePath('alert-muted'),
      other: uniquePath('alert-other'),
    };
    const hook = await aChannel(org.token, { type: 'webhook', config: { url: receiver.url(paths.hook) } });
    const chat = await aChannel(org.token, { type: 'slack', config: { url: receiver.url(paths.chat) }, customerId: customer.id });
    const muted = await aChannel(org.token, { type: 'webhook', config: { url: receiver.url(paths.muted) }, events: ['incident.opened'] });
    await aChannel(org.token, { type: 'webhook', config: { url: receiver.url(paths.other) }, customerId: other.id });

    const sent = await call('POST', '/api/notifications/send-alert', {
      token: org.token,
      body: {
        title: 'Datacenter power maintenance',
        message: 'Expect short outages tonight.',
        severity: 'critical',
        customerId: customer.id,
      },
    });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
    expect(sent.body).to.deep.equal({
      event: 'alert.manual',
      deliveries: [
        { id: sent.body.deliveries[0].id, channelId: hook.publicId, channelType: 'webhook', event: 'alert.manual', status: 'pending' },
        { id: sent.body.deliveries[1].id, channelId: chat.publicId, channelType: 'slack', event: 'alert.manual', status: 'pending' },
      ],
    });
    aWorker('send-alert-worker');
    await waitFor(() => receiver.at(paths.hook).length === 1 && receiver.at(paths.chat).length === 1, {
      what: 'the alert on both channels',
    });
    const webhook = JSON.parse(receiver.at(paths.hook)[0]!.body);
    expect(webhook).to.deep.equal({
      id: sent.body.deliveries[0].id,
      event: 'alert.manual',
      occurredAt: webhook.occurredAt,
      summary: 'Datacenter power maintenance',
      incident: null,
      monitor: null,
      customer: { id: customer.id },
      data: { title: 'Datacenter power maintenance', message: 'Expect short outages tonight.', severity: 'critical' },
    });
    const slack = JSON.parse(receiver.at(paths.chat)[0]!.body);
    expect(slack.text).to.equal('Critical alert: Datacenter power maintenance');
    expect(slack.blocks[1].text.text).to.equal('Datacenter power maintenance\n\nExpect short outages tonight.');
    expect(receiver.at(paths.muted)).to.deep.equal([]);
    expect(receiver.at(paths.other)).to.deep.equal([]);

    // named channels get it whatever events they list; a channel named twice gets it once
    const named = await call('POST', '/api/notifications/send-alert', {
      token: org.token,
      body: { title: 'Only you', channelIds: [muted.id, muted.publicId] },
    });
    expect(named.status, JSON.stringify(named.body)).to.equal(202);
    expect(named.body.deliveries.map((d: { channelId: string }) => d.channelId)).to.deep.equal([muted.publicId]);
    await waitFor(() => receiver.at(paths.muted).length === 1, { what: "the named channel's alert" });
    expect(JSON.parse(receiver.at(paths.muted)[0]!.body)).to.deep.include({ event: 'alert.manual', summary: 'Only you', customer: null });
    await waitFor(async () => (await deliveryOf(named.body.deliveries[0].id))?.status === 'delivered', { what: 'the ledger to record it' });
    const ledger = await call('GET', `/api/notification-deliveries?channelId=${muted.id}`, { token: org.token });
    expect(ledger.body.items.map((d: { event: string; status: string }) => [d.event, d.status])).to.deep.equal([
      ['alert.manual', 'delivered'],
    ]);
  });

  it('send-alert is for organization-wide writers, and answers bad requests with the envelope', async () => {
    const org = await anOrganization('send-alert-errors');
    const customer = await aMonitoredCustomer(org.token);
    const other = await aMonitoredCustomer(org.token);
    const send = (token: string, body: unknown) => call('POST', '/api/notifications/send-alert', { token, body });

    // no channel yet: nothing would hear it
    expectError(await send(org.token, { title: 'Hello?' }), 422, 'noChannelsToNotify');
    const othersChannel = await aChannel(org.token, {
      type: 'webhook',
      config: { url: receiver.url(uniquePath('errors')) },
      customerId: other.id,
    });

    expectError(
      await send(await aCustomerToken(org.token, customer.id), { title: 'From a customer' }),
      403,
      'customerScopedTokenForbidden',
    );
    expectError(await send((await aMember(org, 'readonly')).token, { title: 'From a reader' }), 403, 'roleForbidden');
    expectError(await send(org.token, { title: '' }), 400, 'validationFailed');
    expectError(await send(org.token, { title: 'x', severity: 'apocalyptic' }), 400, 'validationFailed');
    expectError(await send(org.token, { title: 'x', priority: 1 }), 400, 'validationFailed');
    expectError(await send(org.token, { title: 'x', customerId: 2_000_000_000 }), 404, 'customerNotFound');
    const stranger = await anOrganization('send-alert-stranger');
    const strangersChannel = await aChannel(stranger.token, { type: 'webhook', config: { url: receiver.url(uniquePath('stranger')) } });
    const missing = await send(org.token, { title: 'x', channelIds: [strangersChannel.publicId] });
    expectError(missing, 404, 'channelNotFound');
    expect(missing.body.data.channelId).to.equal(strangersChannel.publicId);
    expectError(await send(org.token, { title: 'x', channelIds: ['not-an-id'] }), 400, 'invalidChannelId');
    const crossed = await send(org.token, { title: 'x', customerId: customer.id, channelIds: [othersChannel.id] });
    expectError(crossed, 400, 'invalidRequestBody');
    expect(crossed.body.data).to.include({ field: '/channelIds', reason: 'otherCustomer', channelId: othersChannel.publicId });
    // none of these wrote anything
    const ledger = await call('GET', '/api/notification-deliveries', { token: org.token });
    expect(ledger.body.total).to.equal(0);
  });
});
