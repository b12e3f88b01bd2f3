import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { FakeChannelHealthLedger, FakeDeliveryLedger, FakeStormLedger } from '../../../support/fakes/notifications-fakes';
import { FallBackFromFailingChannels } from '../../../../src/application/notifications/fall-back-from-failing-channels';
import { RouteOutboxEvents, STORM_READ_AHEAD_MS } from '../../../../src/application/notifications/route-outbox-events';
import { harness } from './harness';
import type { ChannelEvent } from '../../../../src/domain/notifications/channel-events';

const admin = () => anActor().build();

/** Routing where three openings of a customer within 5 s go out alone and a fourth starts a storm; follow-ups at most each 60 s. */
function stormHarness() {
  const h = harness();
  const ledger = new FakeDeliveryLedger(h.channels);
  const storms = new FakeStormLedger(ledger);
  storms.customerNames.set(10, 'Acme');
  const fallbacks = new FallBackFromFailingChannels(
    new FakeChannelHealthLedger(ledger, h.channels),
    h.channels,
    { failingAfter: 3 },
    h.clock,
  );
  let nextEvent = 1;
  /** An event of incident `inc-<incident>` (default: a new incident). */
  const anEvent = (over: { kind?: string; customerId?: number; monitorId?: number; incident?: number } = {}) => {
    const id = nextEvent++;
    const incident = over.incident ?? id;
    const kind = over.kind ?? 'incidentOpened';
    ledger.events.push({
      id,
      organizationId: 1,
      kind,
      customerId: over.customerId ?? 10,
      monitorId: over.monitorId ?? 100 + incident,
      incidentId: `inc-${incident}`,
      occurredAt: h.clock.now().toISOString(),
      summary: `site ${incident} is ${kind === 'incidentResolved' ? 'up' : 'down'}`,
      data: {},
      routedAt: null,
    });
  };
  const sentTo = (publicId: string) => ledger.deliveries.filter((d) => d.channelPublicId === publicId).map((d) => d.message);
  const listed = (message: { data: Record<string, unknown> }) =>
    (message.data.incidents as Array<{ incidentId: string; change: string }>).map((i) => `${i.change} ${i.incidentId}`);
  const policy = { alone: 3, windowMs: 5_000, settleMs: 5_000, followUpMs: 60_000, quietMs: 1_800_000 };
  const routeWith = (over: Partial<typeof policy>) =>
    new RouteOutboxEvents(ledger, h.channels, h.clock, storms, { ...policy, ...over }, fallbacks);
  return { ...h, ledger, storms, anEvent, sentTo, listed, routeWith, route: routeWith({}) };
}

const hook = (name = 'hook', events?: ChannelEvent[]) => ({
  name,
  type: 'webhook' as const,
  config: { url: `https://hooks.example.com/${name}` },
  ...(events ? { events } : {}),
});

describe('storms (routing)', () => {
  it('below the threshold every incident and recovery is its own message, at once', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), hook());
    for (let i = 1; i <= 3; i += 1) h.anEvent();
    await h.route.execute();
    for (let i = 1; i <= 3; i += 1) h.anEvent({ kind: 'incidentResolved', incident: i });
    await h.route.execute();
    h.clock.advance(3_600_000);
    expect(await h.route.execute(), 'nothing held').to.equal(0);
    expect(h.sentTo(channel.publicId).map((m) => `${m.event} ${m.incidentId}`)).to.deep.equal([
      'incident.opened inc-1',
      'incident.opened inc-2',
      'incident.opened inc-3',
      'incident.resolved inc-1',
      'incident.resolved inc-2',
      'incident.resolved inc-3',
    ]);
  });

  it('a storm: three alone, one digest for the rest, one follow-up with new failures and recoveries, one recovery digest', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), hook());
    for (let i = 1; i <= 37; i += 1) h.anEvent();
    expect(await h.route.execute()).to.equal(37);
    expect(h.sentTo(channel.publicId)).to.have.length(3);

    h.clock.advance(4_999);
    expect(await h.route.execute(), 'the digest gathers for the window').to.equal(0);
    h.clock.advance(1);
    expect(await h.route.execute()).to.equal(1);
    const digest = h.sentTo(channel.publicId)[3]!;
    expect(digest.event).to.equal('incident.digest');
    expect(digest.summary).to.match(/^37 monitors of Acme are down: site 4 is down; site 5 is down; site 6 is down; and 31 more$/);
    expect(digest.data).to.deep.include({ stage: 'started', count: 34, down: 37, total: 37 });

    // Two more fail, five recover, over the next minute: one follow-up, a period after the digest.
    h.clock.advance(10_000);
    h.anEvent();
    h.anEvent();
    for (let i = 1; i <= 5; i += 1) h.anEvent({ kind: 'incidentResolved', incident: i });
    await h.route.execute();
    h.clock.advance(49_999);
    await h.route.execute();
    expect(h.sentTo(channel.publicId), 'not before the period').to.have.length(4);
    h.clock.advance(1);
    await h.route.execute();
    const followUp = h.sentTo(channel.publicId)[4]!;
    expect(followUp.summary).to.match(/^Acme: 2 more down, 5 recovered; 34 still down: /);
    expect(h.listed(followUp)).to.deep.equal([
      'opened inc-38',
      'opened inc-39',
      'resolved inc-1',
      'resolved inc-2',
      'resolved inc-3',
      'resolved inc-4',
      'resolved inc-5',
    ]);

    h.clock.advance(600_000);
    await h.route.execute();
    expect(h.sentTo(channel.publicId), 'nothing changed: no follow-up').to.have.length(5);

    // Everything else recovers, over two rounds: the storm is over with the last, told at once.
    for (let i = 6; i <= 20; i += 1) h.anEvent({ kind: 'incidentResolved', incident: i });
    await h.route.execute();
    for (let i = 21; i <= 39; i += 1) h.anEvent({ kind: 'incidentResolved', incident: i });
    await h.route.execute();
    const messages = h.sentTo(channel.publicId);
    expect(messages).to.have.length(6);
    expect(messages[5]!.summary).to.match(/^Acme: storm over, all 39 monitors recovered: site 6 is up; /);
    expect(messages[5]!.data).to.deep.include({ stage: 'over', count: 34, resolved: 34, down: 0 });
    h.clock.advance(3_600_000);
    expect(await h.route.execute(), 'calm again').to.equal(0);
  });

  it('a second storm later starts over: alone openings, then its own digest', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), hook());
    for (let i = 1; i <= 5; i += 1) h.anEvent();
    await h.route.execute();
    h.clock.advance(5_000);
    await h.route.execute();
    for (let i = 1; i <= 5; i += 1) h.anEvent({ kind: 'incidentResolved', incident: i });
    await h.route.execute();
    expect(h.sentTo(channel.publicId).map((m) => m.data.stage ?? m.event)).to.deep.equal([
      'incident.opened',
      'incident.opened',
      'incident.opened',
      'started',
      'over',
    ]);
    h.clock.advance(7_200_000);
    for (let i = 1; i <= 5; i += 1) h.anEvent();
    await h.route.execute();
    h.clock.advance(5_000);
    await h.route.execute();
    expect(
      h
        .sentTo(channel.publicId)
        .slice(5)
        .map((m) => m.data.stage ?? m.event),
    ).to.deep.equal(['incident.opened', 'incident.opened', 'incident.opened', 'started']);
    expect(h.sentTo(channel.publicId)[8]!.summary).to.match(/^5 monitors of Acme are down/);
  });

  it('a storm quiet for the quiet period is over, naming how many are still down; their reminders were absorbed meanwhile', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), hook());
    for (let i = 1; i <= 5; i += 1) h.anEvent();
    await h.route.execute();
    h.clock.advance(5_000);
    await h.route.execute();
    h.clock.advance(600_000);
    h.anEvent({ kind: 'reminderDue', incident: 4 });
    h.anEvent({ kind: 'incidentResolved', incident: 5 });
    await h.route.execute();
    h.clock.advance(60_000);
    await h.route.execute();
    h.clock.advance(1_800_000);
    await h.route.execute();
    const messages = h.sentTo(channel.publicId);
    expect(messages.map((m) => m.data.stage ?? m.event)).to.deep.equal([
      'incident.opened',
      'incident.opened',
      'incident.opened',
      'started',
      'update',
      'over',
    ]);
    expect(messages[5]!.summary).to.equal('Acme: storm over (quiet), 1 of 5 recovered, 4 still down');
    // Afterwards the incidents still down tell of themselves again.
    h.anEvent({ kind: 'incidentResolved', incident: 1 });
    await h.route.execute();
    expect(h.sentTo(channel.publicId).at(-1)).to.deep.include({ event: 'incident.resolved', incidentId: 'inc-1' });
  });

  it('counts each customer in its own storm, and sends other transitions and organization-wide events alone', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), hook());
    for (let i = 0; i < 3; i += 1) h.anEvent({ customerId: 10 });
    for (let i = 0; i < 3; i += 1) h.anEvent({ customerId: 11 });
    h.anEvent({ kind: 'incidentAcknowledged', incident: 1 });
    await h.route.execute();
    expect(h.sentTo(channel.publicId)).to.have.length(7);
  });

  it('each channel hears what it listens to: a recoveries-only channel gets the recoveries and the end, an override mutes its monitor', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), hook());
    const { channel: recoveries } = await h.create.execute(admin(), hook('recoveries', ['incident.resolved']));
    h.owners.monitors.push({ id: 105, organizationId: 1, customerId: 10 });
    await h.create.execute(admin(), { name: 'muted', websiteId: 105, sourceChannelId: channel.id, enabled: false });
    for (let i = 1; i <= 6; i += 1) h.anEvent();
    await h.route.execute();
    h.clock.advance(5_000);
    await h.route.execute();
    expect(h.listed(h.sentTo(channel.publicId)[3]!), 'monitor 105 muted there').to.deep.equal(['opened inc-4', 'opened inc-6']);
    expect(h.sentTo(recoveries.publicId)).to.deep.equal([]);
    for (let i = 1; i <= 6; i += 1) h.anEvent({ kind: 'incidentResolved', incident: i });
    await h.route.execute();
    const over = h.sentTo(recoveries.publicId);
    expect(over.map((m) => m.data.stage)).to.deep.equal(['over']);
    expect(h.listed(over[0]!)).to.have.length(6);
  });

  it('reads what a settling storm holds before it is due (the wake says when), so the due round only tells', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), hook());
    for (let i = 1; i <= 10; i += 1) h.anEvent();
    await h.route.execute();
    expect(await h.route.msUntilStormDue(), 'woken the read-ahead before it is due').to.equal(5_000 - STORM_READ_AHEAD_MS);
    expect(h.storms.heldReads, 'nothing read while it gathers').to.deep.equal([]);

    h.clock.advance(5_000 - STORM_READ_AHEAD_MS);
    expect(await h.route.execute(), 'read ahead: nothing told yet').to.equal(0);
    expect(h.storms.heldReads, 'its held events read once').to.deep.equal(['1/10']);
    expect(h.sentTo(channel.publicId)).to.have.length(3);
    expect(await h.route.msUntilStormDue(), 'then woken when it is due').to.equal(STORM_READ_AHEAD_MS);

    h.clock.advance(STORM_READ_AHEAD_MS);
    expect(await h.route.execute()).to.equal(1);
    expect(h.storms.heldReads, 'not read again when told').to.deep.equal(['1/10']);
    const digest = h.sentTo(channel.publicId)[3]!;
    expect(digest.data).to.deep.include({ stage: 'started', count: 7, down: 10 });
    expect(h.listed(digest)).to.deep.equal([4, 5, 6, 7, 8, 9, 10].map((i) => `opened inc-${i}`));
  });

  it('a failure joining a storm after its held events were read ahead is in the digest too', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), hook());
    for (let i = 1; i <= 6; i += 1) h.anEvent();
    await h.route.execute();
    h.clock.advance(5_000 - STORM_READ_AHEAD_MS);
    await h.route.execute();
    h.anEvent();
    expect(await h.route.execute(), 'routed, held').to.equal(1);
    h.clock.advance(STORM_READ_AHEAD_MS);
    expect(await h.route.execute()).to.equal(1);
    const digest = h.sentTo(channel.publicId)[3]!;
    expect(digest.data).to.deep.include({ stage: 'started', count: 4, down: 7 });
    expect(h.listed(digest)).to.deep.equal([4, 5, 6, 7].map((i) => `opened inc-${i}`));
  });

  it('a storm stored due by other settings (a restart with a longer follow-up period) sends nothing early and is due again when the new period says', async () => {
    const h = stormHarness();
    const { channel } = await h.create.execute(admin(), hook());
    for (let i = 1; i <= 5; i += 1) h.anEvent();
    await h.route.execute();
    h.clock.advance(5_000);
    await h.route.execute();
    // A change past the window since the digest (not the same burst caught up) waits the period.
    h.clock.advance(5_000);
    h.anEvent();
    await h.route.execute();
    const dueBefore = h.storms.storms.get('1/10')!.dueAt!;
    h.clock.advance(55_000);
    expect(dueBefore.getTime()).to.equal(h.clock.now().getTime());
    const slower = h.routeWith({ followUpMs: 300_000 });
    await slower.execute();
    expect(h.sentTo(channel.publicId), 'no follow-up before the new period').to.have.length(4);
    expect(h.storms.storms.get('1/10')!.dueAt!.getTime()).to.equal(dueBefore.getTime() + 240_000);
    h.clock.advance(240_000);
    await slower.execute();
    expect(
      h
        .sentTo(channel.publicId)
        .map((m) => m.data.stage ?? m.event)
        .slice(3),
    ).to.deep.equal(['started', 'update']);
  });
});
