import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { FakeDeliveryLedger, FakeNotificationSender } from '../../../support/fakes/notifications-fakes';
import { DeliverDueNotifications, type DeliverySettings } from '../../../../src/application/notifications/deliver-due-notifications';
import { UnavailableSender } from '../../../../src/application/notifications/unavailable-sender';
import type { NotificationSender } from '../../../../src/application/notifications/ports';
import type { ChannelConfig, ChannelType } from '../../../../src/domain/notifications/channel-config';
import { NOTIFIERS } from '../../../../src/domain/notifications/notifiers';
import { harness } from './harness';

const SETTINGS: DeliverySettings = { baseMs: 1_000, maxMs: 60_000, maxAttempts: 1, leaseMs: 30_000, batch: 50 };

/** A channel of every type, each with its descriptor's sample config. */
const CONFIGS: ReadonlyMap<ChannelType, ChannelConfig> = new Map(NOTIFIERS.map((n) => [n.type, n.sample]));

function transportHarness(
  sms: NotificationSender,
  voice: NotificationSender = new FakeNotificationSender(),
  webPush: NotificationSender = new FakeNotificationSender(),
) {
  const h = harness();
  // The people the samples name (a web-push channel's) are organization-wide users of organization 1.
  for (const id of NOTIFIERS.flatMap((n) => (n.sample as ChannelConfig).userIds ?? []))
    h.owners.users.push({ id, organizationId: 1, customerId: null });
  const ledger = new FakeDeliveryLedger(h.channels);
  const post = new FakeNotificationSender();
  const email = new FakeNotificationSender();
  const deliver = new DeliverDueNotifications(
    ledger,
    h.channels,
    { post, email, sms, voice, 'web-push': webPush },
    h.secrets,
    SETTINGS,
    h.clock,
    { notificationDelivery: () => undefined },
    () => 0.5,
  );
  const aDeliveryTo = async (type: ChannelType) => {
    const { channel } = await h.create.execute(anActor().build(), { name: type, type, config: CONFIGS.get(type)! });
    ledger.addDelivery(
      1,
      ledger.deliveries.length + 1,
      { id: channel.id!, publicId: channel.publicId, type },
      {
        event: 'incident.opened',
        occurredAt: '2026-12-01T09:59:00.000Z',
        summary: 'down',
        incidentId: 'inc-1',
        monitorId: 100,
        customerId: null,
        data: {},
      },
      h.clock.now(),
    );
    return channel;
  };
  return { ledger, post, email, deliver, aDeliveryTo };
}

describe("delivery picks the sender of a channel type's transport", () => {
  it('sends webhook and chat channels through the post sender, e-mail, SMS, voice and web push through their own', async () => {
    const sms = new FakeNotificationSender();
    const voice = new FakeNotificationSender();
    const webPush = new FakeNotificationSender();
    const h = transportHarness(sms, voice, webPush);
    const channels = Object.fromEntries(
      await Promise.all([...CONFIGS.keys()].map(async (type) => [type, (await h.aDeliveryTo(type)).publicId])),
    ) as Record<ChannelType, string>;
    await h.deliver.execute('w1');
    const sentTo = (sender: FakeNotificationSender) => sender.sent.map((s) => s.channelId).sort();
    expect(sentTo(h.post)).to.deep.equal(
      NOTIFIERS.filter((n) => n.transport === 'post')
        .map((n) => channels[n.type])
        .sort(),
    );
    expect(sentTo(h.email)).to.deep.equal([channels.email]);
    expect(sentTo(sms)).to.deep.equal([channels.sms]);
    expect(sentTo(voice)).to.deep.equal([channels.voice]);
    expect(sentTo(webPush)).to.deep.equal([channels['web-push']]);
    expect(h.post.sent.find((s) => s.channelId === channels.webhook)!.secret, "the webhook's signing secret").to.match(/^whsec_/);
  });

  it('fails an SMS delivery at once, saying why, when the deployment has no SMS sender (not the channel’s fault)', async () => {
    const h = transportHarness(new UnavailableSender('No sender for sms is configured'));
    await h.aDeliveryTo('sms');
    const [settled] = await h.deliver.execute('w1');
    expect(settled!.next).to.deep.include({ status: 'failed', channelFault: false });
    expect(h.ledger.deliveries[0]).to.deep.include({ status: 'failed', lastError: 'No sender for sms is configured' });
    expect(h.post.sent).to.be.empty;
  });

  it('fails a voice delivery at once, saying why, when the deployment has no Twilio account (not the channel’s fault)', async () => {
    const h = transportHarness(new FakeNotificationSender(), new UnavailableSender('No sender for voice is configured'));
    await h.aDeliveryTo('voice');
    const [settled] = await h.deliver.execute('w1');
    expect(settled!.next).to.deep.include({ status: 'failed', channelFault: false });
    expect(h.ledger.deliveries[0]).to.deep.include({ status: 'failed', lastError: 'No sender for voice is configured' });
  });
});
