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
import { FallBackFromFailingChannels } from '../../../../src/application/notifications/fall-back-from-failing-channels';
import type { StormPolicy } from '../../../../src/domain/notifications/storm-digest';
import { RouteOutboxEvents } from '../../../../src/application/notifications/route-outbox-events';
import { DeliverDueNotifications, type DeliverySettings } from '../../../../src/application/notifications/deliver-due-notifications';
import { ListNotificationDeliveries } from '../../../../src/application/notifications/list-notification-deliveries';
import type { DeliveryOutcome } from '../../../../src/application/observability/ports';
import { harness } from './harness';

const SETTINGS: DeliverySettings = { baseMs: 1_000, maxMs: 60_000, maxAttempts: 3, leaseMs: 30_000, batch: 10 };
const admin = () => anActor().build();

function deliveryHarness(storm: StormPolicy = { alone: 3, windowMs: 60_000, settleMs: 60_000, followUpMs: 60_000, quietMs: 1_800_000 }) {
  const h = harness();
  const ledger = new FakeDeliveryLedger(h.channels);
  const storms = new FakeStormLedger(ledger);
  const fallbacks = new FallBackFromFailingChannels(
    new FakeChannelHealthLedger(ledger, h.channels),
    h.channels,
    { failingAfter: 3 },
    h.clock,
  );
  const sender = new FakeNotificationSender();
  const outcomes: DeliveryOutcome[] = [];
  const metrics = {
    notificationDelivery: (outcome: DeliveryOutcome) => {
      outcomes.push(outcome);
    },
  };
  let nextEvent = 1;
  const anEvent = (over: { kind?: string; customerId?: number | null; monitorId?: number | null; incidentId?: string } = {}) => {
    ledger.events.push({
      id: nextEvent++,
      organizationId: 1,
      kind: over.kind ?? 'incidentOpened',
      customerId: over.customerId ?? 10,
      monitorId: over.monitorId ?? 100,
      incidentId: over.incidentId ?? 'inc-1',
      occurredAt: '2026-12-01T09:59:00.000Z',
      summary: 'shop is down',
      data: {},
      routedAt: null,
    });
  };
  return {
    ...h,
    ledger,
    storms,
    sender,
    outcomes,
    anEvent,
    routeEvents: new RouteOutboxEvents(ledger, h.channels, h.clock, storms, storm, fallbacks),
    deliver: new DeliverDueNotifications(
      ledger,
      h.channels,
      sendersWith({ webhook: sender, email: sender, slack: sender }),
      h.secrets,
      SETTINGS,
      h.clock,
      metrics,
      () => 0.5,
    ),
    listDeliveries: new ListNotificationDeliveries(ledger, h.channels),
  };
}

describe('notification delivery use cases', () => {
  it('routes each event once, to the channels configured for it', async () => {
    const h = deliveryHarness();
    const org = (await h.create.execute(admin(), { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/a' } }))
      .channel;
    const mine = (
      await h.create.execute(admin(), { name: 'mail', type: 'email', config: { recipients: ['a@example.com'] }, customerId: 10 })
    ).channel;
    await h.create.execute(admin(), { name: 'other', type: 'email', config: { recipients: ['b@example.com'] }, customerId: 11 });
    await h.create.execute(admin(), {
      name: 'resolved only',
      type: 'slack',
      config: { url: 'https://hooks.slack.com/x' },
      events: ['incident.resolved'],
    });
    h.anEvent();
    h.anEvent({ kind: 'email' });
    expect(await h.routeEvents.execute()).to.equal(1);
    expect(await h.routeEvents.execute()).to.equal(0);
    expect(h.ledger.deliveries.map((d) => d.channelPublicId)).to.deep.equal([org.publicId, mine.publicId]);
    expect(h.ledger.deliveries[0]!.message).to.deep.include({
      event: 'incident.opened',
      incidentId: 'inc-1',
      customerId: 10,
      monitorId: 100,
    });
  });

  it("routes a round of events at once: each customer gets its own channels, a monitor's override stands in for its monitor only", async () => {
    const h = deliveryHarness();
    h.owners.monitors.push({ id: 101, organizationId: 1, customerId: 10 });
    const org = (await h.create.execute(admin(), { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/a' } }))
      .channel;
    const ten = (
      await h.create.execute(admin(), { name: 'mail 10', type: 'email', config: { recipients: ['a@example.com'] }, customerId: 10 })
    ).channel;
    const eleven = (
      await h.create.execute(admin(), { name: 'mail 11', type: 'email', config: { recipients: ['b@example.com'] }, customerId: 11 })
    ).channel;
    const override = (
      await h.create.execute(admin(), {
        name: 'hook of 100',
        websiteId: 100,
        sourceChannelId: org.publicId,
        config: { url: 'https://hooks.example.com/monitor-100' },
      })
    ).channel;
    h.anEvent({ customerId: 10, monitorId: 100, incidentId: 'inc-100' });
    h.anEvent({ customerId: 10, monitorId: 101, incidentId: 'inc-101' });
    h.anEvent({ customerId: 11, monitorId: 200, incidentId: 'inc-200' });
    h.anEvent({ customerId: 10, monitorId: 100, incidentId: 'inc-100b' });

    expect(await h.routeEvents.execute()).to.equal(4);
    const byIncident = (id: string) => h.ledger.deliveries.filter((d) => d.message.incidentId === id).map((d) => d.channelPublicId);
    expect(byIncident('inc-100')).to.deep.equal([override.publicId, ten.publicId]);
    expect(byIncident('inc-101')).to.deep.equal([org.publicId, ten.publicId]);
    expect(byIncident('inc-200')).to.deep.equal([org.publicId, eleven.publicId]);
    expect(byIncident('inc-100b')).to.deep.equal([override.publicId, ten.publicId]);
  });

  it('retries with back-off after a failure, then delivers with the same id, counting one outcome', async () => {
    const h = deliveryHarness();
    const { channel, secret } = await h.create.execute(admin(), {
      name: 'hook',
      type: 'webhook',
      config: { url: 'https://hooks.example.com/a' },
    });
    h.sender.scripts.set(channel.publicId, [{ verdict: 'retry', statusCode: 503, responseExcerpt: 'busy' }]);
    h.anEvent();
    await h.routeEvents.execute();
    expect(await h.deliver.execute('w1')).to.have.length(1);
    const [delivery] = h.ledger.deliveries;
    // attempt 1 with random 0.5: three quarters of the 1 s base
    expect(delivery).to.include({ status: 'pending' });
    expect(delivery!.nextAttemptAt.getTime() - h.clock.now().getTime()).to.equal(750);
    expect(await h.deliver.execute('w1'), 'not due yet').to.have.length(0);
    h.clock.advance(750);
    expect(await h.deliver.execute('w1')).to.have.length(1);
    expect(delivery).to.include({ status: 'delivered' });
    expect(delivery!.attempts.map((a) => [a.attempt, a.statusCode, a.outcome])).to.deep.equal([
      [1, 503, 'retry'],
      [2, 200, 'delivered'],
    ]);
    expect(new Set(h.sender.sent.map((s) => s.message.id))).to.deep.equal(new Set([delivery!.id]));
    expect(h.sender.sent[0]!.secret).to.equal(secret);
    expect(h.outcomes).to.deep.equal(['delivered']);
  });

  it('waits as long as Retry-After asks', async () => {
    const h = deliveryHarness();
    const { channel } = await h.create.execute(admin(), { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/a' } });
    h.sender.scripts.set(channel.publicId, [{ verdict: 'retry', statusCode: 429, retryAfterMs: 30_000 }]);
    h.anEvent();
    await h.routeEvents.execute();
    await h.deliver.execute('w1');
    expect(h.ledger.deliveries[0]!.nextAttemptAt.getTime() - h.clock.now().getTime()).to.equal(30_000);
  });

  it('fails after maxAttempts, and at once when refused, the channel disabled or no sender exists', async () => {
    const h = deliveryHarness();
    const down = (await h.create.execute(admin(), { name: 'down', type: 'webhook', config: { url: 'https://hooks.example.com/down' } }))
      .channel;
    const gone = (await h.create.execute(admin(), { name: 'gone', type: 'webhook', config: { url: 'https://hooks.example.com/gone' } }))
      .channel;
    const sms = (await h.create.execute(admin(), { name: 'sms', type: 'sms', config: { phoneNumbers: ['+14155550100'] } })).channel;
    const off = (await h.create.execute(admin(), { name: 'off', type: 'email', config: { recipients: ['x@example.com'] } })).channel;
    await h.update.execute(admin(), { id: off.publicId, change: { enabled: false } });
    h.sender.scripts.set(
      down.publicId,
      Array.from({ length: 5 }, () => ({ verdict: 'retry' as const, statusCode: 500 })),
    );
    h.sender.scripts.set(gone.publicId, [{ verdict: 'rejected', statusCode: 410 }]);
    h.anEvent();
    await h.routeEvents.execute();
    // routing ran while "off" was disabled: it has no delivery; enable-then-disable is covered by the deliverer
    for (let i = 0; i < 3; i += 1) {
      await h.deliver.execute('w1');
      h.clock.advance(60_000);
    }
    const byChannel = (id: string) => h.ledger.deliveries.find((d) => d.channelPublicId === id)!;
    expect(byChannel(down.publicId)).to.include({ status: 'failed', lastError: 'Answered 500 (after 3 attempts)' });
    expect(byChannel(gone.publicId)).to.include({ status: 'failed', lastError: 'Answered 410' });
    expect(byChannel(gone.publicId).attempts).to.have.length(1);
    expect(byChannel(sms.publicId)).to.include({ status: 'failed', lastError: 'No sender for sms channels is configured' });
    expect(h.ledger.deliveries.some((d) => d.channelPublicId === off.publicId)).to.equal(false);
    expect(h.outcomes.sort()).to.deep.equal(['failed', 'failed', 'failed']);
  });

  it('does not send a delivery whose channel was disabled after routing', async () => {
    const h = deliveryHarness();
    const { channel } = await h.create.execute(admin(), { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/a' } });
    h.anEvent();
    await h.routeEvents.execute();
    await h.update.execute(admin(), { id: channel.publicId, change: { enabled: false } });
    await h.deliver.execute('w1');
    expect(h.sender.sent).to.have.length(0);
    expect(h.ledger.deliveries[0]).to.include({ status: 'failed', lastError: 'The channel is disabled' });
  });

  it('a second worker does not take a delivery another holds under its lease', async () => {
    const h = deliveryHarness();
    await h.create.execute(admin(), { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/a' } });
    h.anEvent();
    await h.routeEvents.execute();
    const claimed = await h.ledger.claimDue('w1', h.clock.now(), SETTINGS.leaseMs, 10);
    expect(claimed).to.have.length(1);
    expect(await h.deliver.execute('w2')).to.have.length(0);
    h.clock.advance(SETTINGS.leaseMs);
    expect(await h.deliver.execute('w2')).to.have.length(1);
    expect(h.sender.sent).to.have.length(1);
  });

  it("lists what the caller sees: a customer the deliveries through its own channels, never the organization's; a channel out of scope is channelNotFound", async () => {
    const h = deliveryHarness();
    const org = (await h.create.execute(admin(), { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/a' } }))
      .channel;
    const own = (
      await h.create.execute(admin(), { name: 'mail 10', type: 'email', config: { recipients: ['a@example.com'] }, customerId: 10 })
    ).channel;
    await h.create.execute(admin(), { name: 'mail 11', type: 'email', config: { recipients: ['b@example.com'] }, customerId: 11 });
    h.anEvent({ customerId: 10 });
    h.anEvent({ customerId: 11, monitorId: 200, incidentId: 'inc-2' });
    await h.routeEvents.execute();
    const page = { page: 1, perPage: 50 };
    expect((await h.listDeliveries.execute(admin(), page)).total).to.equal(4);
    expect((await h.listDeliveries.execute(admin(), { ...page, incidentId: 'inc-2' })).items.map((d) => d.customerId)).to.deep.equal([
      11, 11,
    ]);
    const customer = anActor().forCustomer(10).build();
    const seen = await h.listDeliveries.execute(customer, page);
    expect(seen.items.map((d) => [d.channelId, d.customerId])).to.deep.equal([[own.publicId, 10]]);
    expect(seen.total).to.equal(1);
    expect((await h.listDeliveries.execute(customer, { ...page, incidentId: 'inc-2' })).total).to.equal(0);
    await expectAppErrorAsync(() => h.listDeliveries.execute(customer, { ...page, channelId: org.publicId }), 'channelNotFound');
    await expectAppErrorAsync(() => h.listDeliveries.execute(admin(), { ...page, channelId: 'nope' }), 'invalidChannelId');
  });
});
