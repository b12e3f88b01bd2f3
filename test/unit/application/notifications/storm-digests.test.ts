import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { FakeChannelHealthLedger, FakeDeliveryLedger, FakeStormLedger } from '../../../support/fakes/notifications-fakes';
import { FallBackFromFailingChannels } from '../../../../src/application/notifications/fall-back-from-failing-channels';
import { RouteOutboxEvents } from '../../../../src/application/notifications/route-outbox-events';
import { harness } from './harness';

const admin = () => anActor().build();

/** Routing with storm windows of 60 s where the first 3 events of a customer's window go out alone. */
function stormHarness() {
  const h = harness();
  const ledger = new FakeDeliveryLedger(h.channels);
  const storms = new FakeStormLedger(ledger);
  const fallbacks = new FallBackFromFailingChannels(new FakeChannelHealthLedger(ledger, h.channels), h.channels, { failingAfter: 3 }, h.clock);
  let nextEvent = 1;
  const anEvent = (over: { kind?: string; customerId?: number; monitorId?: number } = {}) => {
    const id = nextEvent++;
    ledger.events.push({
      id, organizationId: 1, kind: over.kind ?? 'incidentOpened', customerId: over.customerId ?? 10, monitorId: over.monitorId ?? 100,
      incidentId: `inc-${id}`, occurredAt: h.clock.now().toISOString(), summary: `site ${id} is down`, data: {}, routedAt: null,
    });
  };
  const sentTo = (publicId: string) => ledger.deliveries.filter((d) => d.channelPublicId === publicId).map((d) => d.message);
  return { ...h, ledger, storms, anEvent, sentTo, route: new RouteOutboxEvents(ledger, h.channels, h.clock, storms, { alone: 3, windowMs: 60_000 }, fallbacks) };
}

describe('storm digests (routing)', () => {
  it('sends the first three openings of a customer alone and the other seventeen as one digest when the window ends', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/a' } });
    for (let i = 0; i < 20; i += 1) h.anEvent();
    expect(await h.route.execute()).to.equal(20);
    expect(h.sentTo(channel.publicId).map((m) => m.event)).to.deep.equal(['incident.opened', 'incident.opened', 'incident.opened']);

    h.clock.advance(59_999);
    expect(await h.route.execute(), 'the window has not ended').to.equal(0);
    h.clock.advance(1);
    expect(await h.route.execute()).to.equal(1);
    const messages = h.sentTo(channel.publicId);
    expect(messages.map((m) => m.event)).to.deep.equal(['incident.opened', 'incident.opened', 'incident.opened', 'incident.digest']);
    expect(messages[3]!.data).to.deep.include({ digestOf: 'incident.opened', count: 17 });
    expect((messages[3]!.data.incidents as Array<{ incidentId: string }>).map((i) => i.incidentId))
      .to.deep.equal(Array.from({ length: 17 }, (_, i) => `inc-${i + 4}`));
    expect(await h.route.execute(), 'a digest goes once').to.equal(0);
    expect(h.sentTo(channel.publicId)).to.have.length(4);
  });

  it('counts each customer and each kind in its own window, and sends organization-wide events alone', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/a' } });
    for (let i = 0; i < 3; i += 1) h.anEvent({ customerId: 10 });
    for (let i = 0; i < 3; i += 1) h.anEvent({ customerId: 11, monitorId: 200 });
    for (let i = 0; i < 3; i += 1) h.anEvent({ kind: 'incidentResolved' });
    await h.route.execute();
    expect(h.sentTo(channel.publicId)).to.have.length(9);
    h.anEvent({ kind: 'incidentAcknowledged' });
    h.anEvent({ kind: 'reminderDue' });
    await h.route.execute();
    expect(h.sentTo(channel.publicId).map((m) => m.event).slice(9)).to.deep.equal(['incident.acknowledged', 'incident.reminder']);
  });

  it('a channel listing only incident.resolved gets the digest of resolutions, not of openings', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), { name: 'recoveries', type: 'webhook', config: { url: 'https://hooks.example.com/r' }, events: ['incident.resolved'] });
    for (let i = 0; i < 5; i += 1) h.anEvent();
    for (let i = 0; i < 5; i += 1) h.anEvent({ kind: 'incidentResolved' });
    await h.route.execute();
    h.clock.advance(60_000);
    await h.route.execute();
    const messages = h.sentTo(channel.publicId);
    expect(messages.map((m) => m.event)).to.deep.equal(['incident.resolved', 'incident.resolved', 'incident.resolved', 'incident.digest']);
    expect(messages[3]!.data).to.deep.include({ digestOf: 'incident.resolved', count: 2 });
  });

  it('each channel\'s digest lists the incidents it would have received: a monitor\'s override mutes its monitor there', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/a' } });
    h.owners.monitors.push({ id: 101, organizationId: 1, customerId: 10 });
    await h.create.execute(admin(), { name: 'muted', websiteId: 101, sourceChannelId: channel.id, enabled: false });
    for (let i = 0; i < 3; i += 1) h.anEvent();
    h.anEvent({ monitorId: 101 });
    h.anEvent({ monitorId: 100 });
    await h.route.execute();
    h.clock.advance(60_000);
    await h.route.execute();
    const digest = h.sentTo(channel.publicId)[3]!;
    expect(digest.data).to.deep.include({ count: 1 });
    expect((digest.data.incidents as Array<{ monitorId: number }>).map((i) => i.monitorId)).to.deep.equal([100]);
  });

  it('reminders of many incidents due together stay bounded too: three alone, then one "still down" digest', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/a' } });
    for (let i = 0; i < 12; i += 1) h.anEvent({ kind: 'reminderDue' });
    await h.route.execute();
    h.clock.advance(60_000);
    await h.route.execute();
    const messages = h.sentTo(channel.publicId);
    expect(messages.map((m) => m.event)).to.deep.equal(['incident.reminder', 'incident.reminder', 'incident.reminder', 'incident.digest']);
    expect(messages[3]!.data).to.deep.include({ digestOf: 'incident.reminder', count: 9 });
    expect(messages[3]!.summary).to.match(/^9 more monitors are still down: /);
  });

  it('a new window after the last one ended sends its first events alone again', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), { name: 'hook', type: 'webhook', config: { url: 'https://hooks.example.com/a' } });
    for (let i = 0; i < 4; i += 1) h.anEvent();
    await h.route.execute();
    h.clock.advance(60_000);
    h.anEvent();
    await h.route.execute();
    expect(h.sentTo(channel.publicId).map((m) => m.event)).to.deep.equal(['incident.opened', 'incident.opened', 'incident.opened', 'incident.opened', 'incident.digest']);
  });
});
