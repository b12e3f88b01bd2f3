import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { FakeDeliveryLedger, FakeNotificationSender, sendersWith } from '../../../support/fakes/notifications-fakes';
import { FakeRateLimiter } from '../../../support/fakes/shared-fakes';
import { CHANNEL_TEST_LIMIT, SendTestNotification } from '../../../../src/application/notifications/send-test-notification';
import { SEND_ALERT_LIMIT, SendManualAlert } from '../../../../src/application/notifications/send-manual-alert';
import { DeliverDueNotifications } from '../../../../src/application/notifications/deliver-due-notifications';
import { harness } from './harness';

const admin = () => anActor().build();
const noMetrics = { notificationDelivery: () => undefined };

function manualHarness() {
  const h = harness();
  const ledger = new FakeDeliveryLedger();
  const limiter = new FakeRateLimiter(17);
  const sender = new FakeNotificationSender();
  const webhook = async (name: string, over: Record<string, unknown> = {}) =>
    (
      await h.create.execute(admin(), {
        name,
        type: 'webhook',
        config: { url: `https://hooks.example.com/${encodeURIComponent(name)}` },
        ...over,
      })
    ).channel;
  return {
    ...h,
    ledger,
    limiter,
    sender,
    webhook,
    test: new SendTestNotification(ledger, h.channels, limiter, h.clock),
    alert: new SendManualAlert(ledger, h.channels, h.owners, limiter, h.clock),
    deliver: new DeliverDueNotifications(
      ledger,
      h.channels,
      sendersWith({ webhook: sender }),
      h.secrets,
      { baseMs: 1_000, maxMs: 60_000, maxAttempts: 3, leaseMs: 30_000, batch: 10 },
      h.clock,
      noMetrics,
      () => 0.5,
    ),
  };
}

describe('the test button (SendTestNotification)', () => {
  it('queues one test delivery for that channel in the ledger, its outbox event routed at once', async () => {
    const h = manualHarness();
    const channel = await h.webhook('ops', { customerId: 10, events: ['incident.opened'] });
    await h.webhook('bystander');
    const { deliveryId } = await h.test.execute(admin(), { id: channel.publicId });
    expect(h.ledger.deliveries).to.have.length(1);
    expect(h.ledger.deliveries[0]).to.deep.include({
      id: deliveryId,
      channelPublicId: channel.publicId,
      customerId: 10,
      status: 'pending',
    });
    expect(h.ledger.deliveries[0]!.message).to.deep.include({ event: 'test', customerId: 10, incidentId: null });
    expect(h.ledger.dispatched).to.deep.equal([
      { organizationId: 1, kind: 'test', requestedBy: 'admin-1', id: h.ledger.deliveries[0]!.outboxId, routedAt: h.clock.now() },
    ]);
  });

  it('the deliverer sends a test even to a disabled channel, and nothing else to it', async () => {
    const h = manualHarness();
    const channel = await h.webhook('off', { enabled: false });
    await h.test.execute(admin(), { id: channel.id });
    await h.alert.execute(admin(), { title: 'Hello', channelIds: [channel.id] });
    await h.deliver.execute('w1');
    expect(h.sender.sent.map((s) => s.message.event)).to.deep.equal(['test']);
    expect(h.ledger.deliveries.map((d) => [d.message.event, d.status, d.lastError])).to.deep.equal([
      ['test', 'delivered', null],
      ['alert.manual', 'failed', 'The channel is disabled'],
    ]);
  });

  it('is scoped like the channel: a customer tests its own, anything else is channelNotFound', async () => {
    const h = manualHarness();
    const own = await h.webhook('own', { customerId: 10 });
    const org = await h.webhook('org');
    const customer = anActor().forCustomer(10).build();
    expect((await h.test.execute(customer, { id: own.publicId })).channel.id).to.equal(own.id);
    await expectAppErrorAsync(h.test.execute(customer, { id: org.publicId }), 'channelNotFound');
    await expectAppErrorAsync(h.test.execute(anActor().forCustomer(11).build(), { id: own.publicId }), 'channelNotFound');
    await expectAppErrorAsync(h.test.execute(anActor().inOrganization(2).build(), { id: own.id }), 'channelNotFound');
    await expectAppErrorAsync(h.test.execute(admin(), { id: 'nope' }), 'invalidChannelId');
    await expectAppErrorAsync(h.test.execute(anActor().withRole('readonly').build(), { id: own.id }), 'roleForbidden');
    expect(h.ledger.deliveries).to.have.length(1);
  });

  it(`allows ${CHANNEL_TEST_LIMIT.limit} tests per channel per window, then rateLimited with retryAfter, counted per channel`, async () => {
    const h = manualHarness();
    const busy = await h.webhook('busy');
    const quiet = await h.webhook('quiet');
    for (let i = 0; i < CHANNEL_TEST_LIMIT.limit; i += 1) await h.test.execute(admin(), { id: busy.id });
    await expectAppErrorAsync(h.test.execute(admin(), { id: busy.id }), 'rateLimited', { retryAfter: 17 });
    await h.test.execute(admin(), { id: quiet.id });
    expect(h.ledger.deliveries.filter((d) => d.channelPublicId === busy.publicId)).to.have.length(CHANNEL_TEST_LIMIT.limit);
    // an unknown channel is not counted against anyone
    await expectAppErrorAsync(h.test.execute(admin(), { id: 999 }), 'channelNotFound');
    expect([...h.limiter.counts.keys()].sort()).to.deep.equal([`channel-test:${busy.publicId}`, `channel-test:${quiet.publicId}`].sort());
  });
});

describe('alerts sent by hand (SendManualAlert)', () => {
  it("without channelIds, goes where routing sends alert.manual: the organization's channels, and the customer's when named", async () => {
    const h = manualHarness();
    const org = await h.webhook('org');
    const own = await h.webhook('own', { customerId: 10 });
    await h.webhook('other', { customerId: 11 });
    await h.webhook('incidents only', { events: ['incident.opened'] });
    await h.webhook('off', { enabled: false });
    const orgOnly = await h.alert.execute(admin(), { title: 'All hands' });
    expect(orgOnly.deliveries.map((d) => d.channel.id)).to.deep.equal([org.id]);
    const aboutCustomer = await h.alert.execute(admin(), { title: 'Your site', message: 'Details', severity: 'critical', customerId: 10 });
    expect(aboutCustomer.deliveries.map((d) => d.channel.id)).to.deep.equal([org.id, own.id]);
    const [first] = aboutCustomer.deliveries;
    const delivery = h.ledger.deliveries.find((d) => d.id === first!.id)!;
    expect(delivery.message).to.deep.include({
      event: 'alert.manual',
      summary: 'Your site',
      customerId: 10,
      data: { title: 'Your site', message: 'Details', severity: 'critical' },
    });
    expect(h.ledger.dispatched.map((e) => e.kind)).to.deep.equal(['alert.manual', 'alert.manual']);
  });

  it("with channelIds, goes to those (once each) whatever their events; a customer's alert may not name another customer's channel", async () => {
    const h = manualHarness();
    const quiet = await h.webhook('quiet', { events: ['incident.opened'] });
    const other = await h.webhook('other', { customerId: 11 });
    const sent = await h.alert.execute(admin(), { title: 'Hi', channelIds: [quiet.id, quiet.publicId, other.publicId] });
    expect(sent.deliveries.map((d) => d.channel.id)).to.deep.equal([quiet.id, other.id]);
    expect(h.ledger.deliveries[0]!.message).to.deep.include({ data: { title: 'Hi', message: null, severity: 'warning' } });
    await expectAppErrorAsync(
      h.alert.execute(admin(), { title: 'Hi', customerId: 10, channelIds: [quiet.id, other.id] }),
      'invalidRequestBody',
      { field: 'channelIds', reason: 'otherCustomer', channelId: other.publicId },
    );
    await expectAppErrorAsync(
      h.alert.execute(anActor().inOrganization(2).build(), { title: 'Hi', channelIds: [quiet.id] }),
      'channelNotFound',
      { channelId: String(quiet.id) },
    );
    expect(h.ledger.deliveries).to.have.length(2);
  });

  it('refuses customer-bound callers, readers, unknown customers, and an alert nobody would receive', async () => {
    const h = manualHarness();
    await expectAppErrorAsync(h.alert.execute(admin(), { title: 'Anyone?' }), 'noChannelsToNotify');
    await h.webhook('org');
    await expectAppErrorAsync(h.alert.execute(anActor().forCustomer(10).build(), { title: 'x' }), 'customerScopedTokenForbidden');
    await expectAppErrorAsync(h.alert.execute(anActor().withRole('readonly').build(), { title: 'x' }), 'roleForbidden');
    await expectAppErrorAsync(h.alert.execute(admin(), { title: 'x', customerId: 20 }), 'customerNotFound');
    expect(h.ledger.deliveries).to.deep.equal([]);
  });

  it(`allows ${SEND_ALERT_LIMIT.limit} alerts per organization per window, then rateLimited with retryAfter`, async () => {
    const h = manualHarness();
    await h.webhook('org');
    for (let i = 0; i < SEND_ALERT_LIMIT.limit; i += 1) await h.alert.execute(admin(), { title: `#${i}` });
    await expectAppErrorAsync(h.alert.execute(admin(), { title: 'one too many' }), 'rateLimited', { retryAfter: 17 });
    expect(h.ledger.deliveries).to.have.length(SEND_ALERT_LIMIT.limit);
  });
});
