import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import {
  FakeChannelHealthLedger,
  FakeDeliveryLedger,
  FakeNotificationSender,
  FakeStormLedger,
  sendersWith,
} from '../../../support/fakes/notifications-fakes';
import { RouteOutboxEvents } from '../../../../src/application/notifications/route-outbox-events';
import { DeliverDueNotifications } from '../../../../src/application/notifications/deliver-due-notifications';
import { FallBackFromFailingChannels } from '../../../../src/application/notifications/fall-back-from-failing-channels';
import { harness } from './harness';

const admin = () => anActor().build();
const HOOK = { type: 'webhook' as const, config: { url: 'https://hooks.example.com/primary' } };
const MAIL = { type: 'email' as const, config: { recipients: ['noc@example.com'] } };

/** One round trip of the worker: route (with fallbacks), deliver, route again (what the deliveries' outcomes call for). */
function fallbackHarness() {
  const h = harness();
  const ledger = new FakeDeliveryLedger(h.channels);
  const health = new FakeChannelHealthLedger(ledger, h.channels);
  const sender = new FakeNotificationSender();
  const route = new RouteOutboxEvents(
    ledger,
    h.channels,
    h.clock,
    new FakeStormLedger(ledger),
    { alone: 3, windowMs: 0, settleMs: 0, followUpMs: 60_000, quietMs: 1_800_000 },
    new FallBackFromFailingChannels(health, h.channels, { failingAfter: 2 }, h.clock),
  );
  const deliver = new DeliverDueNotifications(
    ledger,
    h.channels,
    sendersWith({ webhook: sender, email: sender }),
    h.secrets,
    { baseMs: 1_000, maxMs: 60_000, maxAttempts: 1, leaseMs: 30_000, batch: 50 },
    h.clock,
    { notificationDelivery: () => undefined },
    () => 0.5,
  );
  let nextEvent = 1;
  const anIncident = async () => {
    const id = nextEvent++;
    ledger.events.push({
      id,
      organizationId: 1,
      kind: 'incidentOpened',
      customerId: 10,
      monitorId: 100,
      incidentId: `inc-${id}`,
      occurredAt: h.clock.now().toISOString(),
      summary: `shop ${id} is down`,
      data: {},
      routedAt: null,
    });
    for (let i = 0; i < 3; i += 1) {
      await route.execute();
      await deliver.execute('w1');
    }
  };
  const to = (publicId: string) => ledger.deliveries.filter((d) => d.channelPublicId === publicId);
  const channel = async (publicId: string) => await h.get.execute(admin(), { id: publicId });
  return { ...h, ledger, health, sender, anIncident, to, channel, route, deliver };
}

describe('the fallback channel (use cases)', () => {
  it('sends a failed delivery again to the default channel, marks the channel failing at the threshold and announces it once', async () => {
    const h = fallbackHarness();
    const primary = (await h.create.execute(admin(), { name: 'primary', ...HOOK, events: ['incident.resolved'] })).channel;
    await h.update.execute(admin(), { id: primary.publicId, change: { events: ['incident.opened'] } });
    const fallback = (await h.create.execute(admin(), { name: 'noc', ...MAIL, events: ['incident.resolved'], isDefault: true })).channel;
    h.sender.scripts.set(
      primary.publicId,
      Array.from({ length: 3 }, () => ({ verdict: 'rejected' as const, statusCode: 410 })),
    );

    await h.anIncident();
    expect((await h.channel(primary.publicId)).consecutiveFailures).to.equal(1);
    expect((await h.channel(primary.publicId)).failingSince, 'one failure is not a failing channel yet').to.equal(null);
    const [copy] = h.to(fallback.publicId);
    expect(copy).to.deep.include({ status: 'delivered', fallbackOf: h.to(primary.publicId)[0]!.id, customerId: null });
    expect(copy!.message).to.deep.include({ event: 'incident.opened', incidentId: 'inc-1', summary: 'shop 1 is down' });

    await h.anIncident();
    await h.anIncident();
    const failing = await h.channel(primary.publicId);
    expect(failing.consecutiveFailures).to.equal(3);
    expect(failing.failingSince).to.be.instanceOf(Date);
    const received = h.to(fallback.publicId).map((d) => d.message.event);
    expect(
      received.filter((e) => e === 'incident.opened'),
      'every failed alert reached the default channel',
    ).to.have.length(3);
    expect(
      received.filter((e) => e === 'channel.failing'),
      'announced once per streak',
    ).to.have.length(1);
    const announcement = h.to(fallback.publicId).find((d) => d.message.event === 'channel.failing')!;
    expect(announcement.message.summary).to.equal(
      'Notification channel "primary" is failing: 2 attempts in a row failed (last: Answered 410)',
    );
    expect(announcement.message.data).to.include({ channelId: primary.publicId, consecutiveFailures: 2 });
  });

  it('health follows the attempts: degraded after one failed try, failing at the threshold with the copy to the default sent then, while retries go on', async () => {
    const h = fallbackHarness();
    const deliver = new DeliverDueNotifications(
      h.ledger,
      h.channels,
      sendersWith({ webhook: h.sender, email: h.sender }),
      h.secrets,
      { baseMs: 1_000, maxMs: 1_000, maxAttempts: 8, leaseMs: 30_000, batch: 50, failingAfter: 2 },
      h.clock,
      { notificationDelivery: () => undefined },
      () => 0.5,
    );
    const primary = (await h.create.execute(admin(), { name: 'primary', ...HOOK, events: ['incident.opened'] })).channel;
    const fallback = (await h.create.execute(admin(), { name: 'noc', ...MAIL, events: ['incident.resolved'], isDefault: true })).channel;
    h.sender.scripts.set(
      primary.publicId,
      Array.from({ length: 3 }, () => ({ verdict: 'retry' as const, statusCode: 503 })),
    );
    h.ledger.events.push({
      id: 1,
      organizationId: 1,
      kind: 'incidentOpened',
      customerId: 10,
      monitorId: 100,
      incidentId: 'inc-1',
      occurredAt: h.clock.now().toISOString(),
      summary: 'shop is down',
      data: {},
      routedAt: null,
    });
    await h.route.execute();
    await deliver.execute('w1');
    const once = await h.channel(primary.publicId);
    expect([once.consecutiveFailures, once.failingSince], 'one failed try: degraded').to.deep.equal([1, null]);
    expect(h.to(fallback.publicId), 'no copy yet').to.deep.equal([]);

    h.clock.advance(2_000);
    await deliver.execute('w1');
    await h.route.execute();
    expect((await h.channel(primary.publicId)).failingSince, 'failing at the second failed try').to.be.instanceOf(Date);
    expect(h.to(primary.publicId)[0]!.status, 'the original still retries').to.equal('pending');
    expect(h.to(fallback.publicId).map((d) => d.message.event)).to.include.members(['incident.opened', 'channel.failing']);

    h.clock.advance(2_000);
    await deliver.execute('w1');
    h.clock.advance(2_000);
    await deliver.execute('w1');
    const healed = await h.channel(primary.publicId);
    expect([healed.consecutiveFailures, healed.failingSince], 'a delivered try makes it healthy').to.deep.equal([0, null]);
  });

  it('a delivered message ends the streak; the next streak is announced again', async () => {
    const h = fallbackHarness();
    const primary = (await h.create.execute(admin(), { name: 'primary', ...HOOK })).channel;
    const fallback = (await h.create.execute(admin(), { name: 'noc', ...MAIL, events: ['incident.resolved'], isDefault: true })).channel;
    h.sender.scripts.set(primary.publicId, [
      { verdict: 'rejected', statusCode: 500 },
      { verdict: 'rejected', statusCode: 500 },
      {},
      { verdict: 'rejected', statusCode: 500 },
      { verdict: 'rejected', statusCode: 500 },
    ]);
    await h.anIncident();
    await h.anIncident();
    expect((await h.channel(primary.publicId)).failingSince).to.be.instanceOf(Date);
    await h.anIncident();
    const healed = await h.channel(primary.publicId);
    expect(healed).to.include({ consecutiveFailures: 0, failingSince: null });
    expect(healed.lastSuccessAt).to.be.instanceOf(Date);
    await h.anIncident();
    await h.anIncident();
    expect(h.to(fallback.publicId).filter((d) => d.message.event === 'channel.failing')).to.have.length(2);
  });

  it('without a default channel the channel still turns failing, and nothing is sent anywhere else', async () => {
    const h = fallbackHarness();
    const primary = (await h.create.execute(admin(), { name: 'primary', ...HOOK })).channel;
    h.sender.scripts.set(primary.publicId, [
      { verdict: 'rejected', statusCode: 404 },
      { verdict: 'rejected', statusCode: 404 },
    ]);
    await h.anIncident();
    await h.anIncident();
    expect((await h.channel(primary.publicId)).failingSince).to.be.instanceOf(Date);
    expect(h.health.announcements.map((a) => a.target)).to.deep.equal([null]);
    expect(h.ledger.deliveries.filter((d) => d.channelPublicId !== primary.publicId)).to.deep.equal([]);
  });

  it("the default channel failing itself has nothing to fall back to; a disabled channel's give-up is not the channel failing", async () => {
    const h = fallbackHarness();
    const only = (await h.create.execute(admin(), { name: 'only', ...HOOK, isDefault: true })).channel;
    h.sender.scripts.set(only.publicId, [{ verdict: 'rejected', statusCode: 500 }]);
    await h.anIncident();
    expect(h.ledger.deliveries).to.have.length(1);
    expect((await h.channel(only.publicId)).consecutiveFailures).to.equal(1);

    const h2 = fallbackHarness();
    const off = (await h2.create.execute(admin(), { name: 'off', ...HOOK })).channel;
    const noc = (await h2.create.execute(admin(), { name: 'noc', ...MAIL, events: ['incident.resolved'], isDefault: true })).channel;
    h2.ledger.events.push({
      id: 99,
      organizationId: 1,
      kind: 'incidentOpened',
      customerId: 10,
      monitorId: 100,
      incidentId: 'inc-99',
      occurredAt: h2.clock.now().toISOString(),
      summary: 'down',
      data: {},
      routedAt: null,
    });
    await h2.route.execute();
    await h2.update.execute(admin(), { id: off.publicId, change: { enabled: false } });
    await h2.deliver.execute('w1');
    await h2.route.execute();
    expect(h2.to(off.publicId)[0]).to.include({ status: 'failed', lastError: 'The channel is disabled' });
    expect((await h2.channel(off.publicId)).consecutiveFailures).to.equal(0);
    expect(h2.to(noc.publicId), 'a message someone switched off is not re-routed').to.deep.equal([]);
  });

  it('one default per organization: making another the default moves it; a customer channel cannot be the default', async () => {
    const h = fallbackHarness();
    const first = (await h.create.execute(admin(), { name: 'first', ...HOOK, isDefault: true })).channel;
    const second = (await h.create.execute(admin(), { name: 'second', ...MAIL })).channel;
    await h.update.execute(admin(), { id: second.publicId, change: { isDefault: true } });
    expect((await h.channel(first.publicId)).isDefault).to.equal(false);
    expect((await h.channel(second.publicId)).isDefault).to.equal(true);
    await expectAppErrorAsync(
      h.create.execute(admin(), { name: 'mine', ...HOOK, config: { url: 'https://hooks.example.com/c' }, customerId: 10, isDefault: true }),
      'invalidRequestBody',
      { field: 'isDefault', reason: 'organizationChannelsOnly' },
    );
  });
});
