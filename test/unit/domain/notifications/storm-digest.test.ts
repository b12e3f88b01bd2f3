import { expect } from 'chai';
import {
  CALM,
  groupsInStorms,
  routeInStorm,
  stormDueAt,
  stormMessage,
  tellStorm,
  type CustomerStorm,
  type StormChange,
  type StormDecision,
  type StormEvent,
} from '../../../../src/domain/notifications/storm-digest';
import type { ChannelEvent } from '../../../../src/domain/notifications/channel-events';
import { digestLines } from '../../../../src/domain/notifications/notification-message';
import { chatPayload, emailContent, smsContent, webhookPayload } from '../../../../src/domain/notifications/notification-message';

/** Three openings within 5 s go out alone, a fourth starts a storm; follow-ups at most each 60 s; 30 quiet minutes end it. */
const POLICY = { alone: 3, windowMs: 5_000, settleMs: 5_000, followUpMs: 60_000, quietMs: 1_800_000 };
const s = (seconds: number) => seconds * 1000;
const opened = (n: number, seconds: number): StormEvent => ({ kind: 'incident.opened', incidentId: `inc-${n}`, at: s(seconds) });
const resolved = (n: number, seconds: number): StormEvent => ({ kind: 'incident.resolved', incidentId: `inc-${n}`, at: s(seconds) });
const reminder = (n: number, seconds: number): StormEvent => ({ kind: 'incident.reminder', incidentId: `inc-${n}`, at: s(seconds) });

/** Routes events one after the other from `state`: the decisions and the state after them. */
function routeAll(state: CustomerStorm, events: StormEvent[]): { state: CustomerStorm; decisions: StormDecision[] } {
  const decisions: StormDecision[] = [];
  for (const event of events) {
    const step = routeInStorm(state, event, POLICY);
    state = step.state;
    decisions.push(step.decision);
  }
  return { state, decisions };
}

/** A storm of `n` openings at second 0 (the first three alone). */
const stormOf = (n: number) =>
  routeAll(
    CALM,
    Array.from({ length: n }, (_, i) => opened(i + 1, 0)),
  ).state;

const change = (kind: ChannelEvent, n: number): StormChange => ({
  kind,
  incidentId: `inc-${n}`,
  monitorId: 100 + n,
  summary: `site-${n}.example.com is ${kind === 'incident.opened' ? 'down' : 'up'}`,
  occurredAt: new Date(s(n)).toISOString(),
  data: { monitorPublicId: `m-${n}` },
});

describe('storms (domain)', () => {
  it('goes through storms for incident transitions of a customer only, and not with the window at 0', () => {
    expect(groupsInStorms('incident.opened', 7, POLICY)).to.equal(true);
    expect(groupsInStorms('incident.resolved', 7, POLICY)).to.equal(true);
    expect(groupsInStorms('incident.reminder', 7, POLICY)).to.equal(true);
    expect(groupsInStorms('incident.acknowledged', 7, POLICY)).to.equal(false);
    expect(groupsInStorms('maintenance.started', 7, POLICY)).to.equal(false);
    expect(groupsInStorms('incident.opened', null, POLICY)).to.equal(false);
    expect(groupsInStorms('incident.opened', 7, { ...POLICY, windowMs: 0 })).to.equal(false);
  });

  it('below the threshold every opening, and its recovery, goes out alone and no storm starts', () => {
    const { state, decisions } = routeAll(CALM, [opened(1, 0), opened(2, 1), opened(3, 4), resolved(1, 4), reminder(2, 4)]);
    expect(decisions).to.deep.equal(['alone', 'alone', 'alone', 'alone', 'alone']);
    expect(state.storm).to.equal(null);
    expect(stormDueAt(state, POLICY)).to.equal(null);
    expect(tellStorm(state, s(3600), POLICY).stage).to.equal(null);
  });

  it('counts openings in a window from its first: once it ended the next opening starts a new window, alone', () => {
    const { state, decisions } = routeAll(CALM, [opened(1, 0), opened(2, 1), opened(3, 2), opened(4, 5), opened(5, 6)]);
    expect(decisions).to.deep.equal(['alone', 'alone', 'alone', 'alone', 'alone']);
    expect(state).to.deep.equal({ windowEndsAt: s(10), windowIncidents: ['inc-4', 'inc-5'], storm: null });
  });

  it('the opening past the threshold starts the storm: held with the ones after it; the first digest gathers for the window', () => {
    const { state, decisions } = routeAll(CALM, [opened(1, 0), opened(2, 1), opened(3, 2), opened(4, 3), opened(5, 4)]);
    expect(decisions).to.deep.equal(['alone', 'alone', 'alone', 'held', 'held']);
    expect(state.storm).to.deep.equal({
      startedAt: s(3),
      lastFailureAt: s(4),
      down: ['inc-1', 'inc-2', 'inc-3', 'inc-4', 'inc-5'],
      total: 5,
      toldAt: null,
      pendingSince: s(3),
    });
    expect(stormDueAt(state, POLICY)).to.equal(s(8));
    expect(tellStorm(state, s(7.999), POLICY).stage, 'still gathering').to.equal(null);
    const told = tellStorm(state, s(8), POLICY);
    expect(told.stage).to.equal('started');
    expect(told.state.storm).to.deep.include({ toldAt: s(8), pendingSince: null });
  });

  it('tells the first digest once the storm settled: no new failure for settleMs, and at most the window after it started', () => {
    const settling = { ...POLICY, settleMs: 1_000 };
    const route = (events: StormEvent[]) => events.reduce((state, event) => routeInStorm(state, event, settling).state, CALM);
    // A burst over 2 s: told a second after its last failure, long before the window ends.
    const burst = route([opened(1, 0), opened(2, 0.5), opened(3, 1), opened(4, 1.5), opened(5, 2)]);
    expect(stormDueAt(burst, settling)).to.equal(s(3));
    expect(tellStorm(burst, s(2.999), settling).stage, 'the burst may go on').to.equal(null);
    expect(tellStorm(burst, s(3), settling).stage).to.equal('started');
    // Failures that keep coming: told when the window after the storm's start ends.
    const steady = route(Array.from({ length: 20 }, (_, i) => opened(i + 1, i * 0.5)));
    expect(steady.storm!.startedAt).to.equal(s(1.5));
    expect(stormDueAt(steady, settling)).to.equal(s(6.5));
    // A failure right after the first digest (the same burst, seen late) is caught up as it settles;
    // after that follow-up, the follow-ups keep their own period.
    const told = tellStorm(burst, s(3), settling).state;
    const late = routeInStorm(told, opened(9, 4), settling).state;
    expect(stormDueAt(late, settling)).to.equal(s(5));
    const caughtUp = tellStorm(late, s(5), settling).state;
    expect(stormDueAt(routeInStorm(caughtUp, opened(10, 6), settling).state, settling)).to.equal(s(65));
  });

  it('holds every opening past zero alone (the first alert then waits for the digest)', () => {
    expect(routeInStorm(CALM, opened(1, 0), { ...POLICY, alone: 0 }).decision).to.equal('held');
  });

  it('nothing changed since the digest: no follow-up, only the quiet end is due', () => {
    const told = tellStorm(stormOf(10), s(5), POLICY).state;
    expect(stormDueAt(told, POLICY)).to.equal(s(1800));
    expect(tellStorm(told, s(600), POLICY).stage).to.equal(null);
  });

  it('new failures and recoveries after the digest: one follow-up, not before the period since the digest', () => {
    const told = tellStorm(stormOf(10), s(5), POLICY).state;
    const { state, decisions } = routeAll(told, [opened(11, 10), opened(12, 20), resolved(1, 30), resolved(2, 40)]);
    expect(decisions).to.deep.equal(['held', 'held', 'held', 'held']);
    expect(state.storm).to.deep.include({ total: 12, lastFailureAt: s(20), pendingSince: s(10) });
    expect(state.storm!.down).to.have.length(10);
    expect(stormDueAt(state, POLICY), 'a period after the digest').to.equal(s(65));
    expect(tellStorm(state, s(64), POLICY).stage).to.equal(null);
    const followUp = tellStorm(state, s(65), POLICY);
    expect(followUp.stage).to.equal('update');
    expect(followUp.state.storm).to.deep.include({ toldAt: s(65), pendingSince: null });
    // A change long after the last message waits the window (gathering its neighbours), not a period.
    const later = routeInStorm(followUp.state, resolved(3, 500), POLICY).state;
    expect(stormDueAt(later, POLICY)).to.equal(s(505));
  });

  it('a burst longer than the window: the digest at the window, one follow-up as soon as the burst settled, then the period again', () => {
    const policy = { ...POLICY, settleMs: 1_000 };
    // Openings every half second from 0 to 9 s (a slow machine recording a large storm).
    let early = CALM;
    for (let i = 0; i <= 13; i += 1) early = routeInStorm(early, opened(i + 1, i / 2), policy).state;
    expect(stormDueAt(early, policy), 'the window (from the fourth opening, at 1.5 s) caps the first digest').to.equal(s(6.5));
    const digest = tellStorm(early, s(6.5), policy);
    expect(digest.stage).to.equal('started');
    expect(digest.state.storm!.catchUp, 'a first follow-up may catch up').to.equal(true);
    // The rest joins after it and is told once the burst settled (9 s + 1 s), not a period after the digest.
    let after = digest.state;
    for (let i = 14; i <= 18; i += 1) after = routeInStorm(after, opened(i + 1, i / 2), policy).state;
    expect(stormDueAt(after, policy)).to.equal(s(10));
    expect(tellStorm(after, s(9.9), policy).stage).to.equal(null);
    const caughtUp = tellStorm(after, s(10), policy);
    expect(caughtUp.stage).to.equal('update');
    expect(caughtUp.state.storm!.catchUp).to.equal(false);
    // From then on, at most one follow-up per period.
    const more = routeInStorm(caughtUp.state, opened(30, 12), policy).state;
    expect(stormDueAt(more, policy)).to.equal(s(70));
  });

  it('a pause inside a burst (the digest went out in it): the failures after the pause are caught up as they settle', () => {
    const policy = { ...POLICY, settleMs: 1_000 };
    // Ten openings at 0 s, a pause of 1.5 s (recording or routing fell behind), ten more at 1.5-2 s.
    const first = routeAll(
      CALM,
      Array.from({ length: 10 }, (_, i) => opened(i + 1, 0)),
    ).state;
    expect(stormDueAt(first, policy), 'settled for a second').to.equal(s(1));
    const digest = tellStorm(first, s(1), policy);
    expect(digest.stage).to.equal('started');
    const rest = routeAll(digest.state, [...Array.from({ length: 9 }, (_, i) => opened(11 + i, 1.5)), opened(20, 2)]).state;
    expect(stormDueAt(rest, policy), 'as they settle (2 s + 1 s), not at 61 s').to.equal(s(3));
    expect(tellStorm(rest, s(3), policy).stage).to.equal('update');
    // A change after the window since the digest is a later wave: the usual gathering and period.
    const laterWave = routeInStorm(digest.state, opened(40, 30), policy).state;
    expect(stormDueAt(laterWave, policy)).to.equal(s(61));
    // Recoveries right after the digest are not caught up: they gather as usual (or end the storm when all are back).
    const recovering = routeInStorm(digest.state, resolved(1, 1.5), policy).state;
    expect(stormDueAt(recovering, policy)).to.equal(s(61));
  });

  it('absorbs the reminders of its incidents (its messages speak for them), not those of incidents outside it', () => {
    const told = tellStorm(stormOf(5), s(5), POLICY).state;
    expect(routeInStorm(told, reminder(2, 100), POLICY)).to.deep.equal({ state: told, decision: 'absorbed' });
    expect(routeInStorm(told, reminder(99, 100), POLICY).decision).to.equal('alone');
    expect(routeInStorm(told, resolved(99, 100), POLICY).decision, 'an incident opened before the storm').to.equal('alone');
  });

  it('is over once its last incident recovered: the recovery digest is due at once and the customer is calm again', () => {
    const told = tellStorm(stormOf(5), s(5), POLICY).state;
    const { state } = routeAll(
      told,
      [1, 2, 3, 4, 5].map((n) => resolved(n, 30 + n)),
    );
    expect(state.storm!.down).to.deep.equal([]);
    expect(stormDueAt(state, POLICY)).to.equal(s(31));
    const over = tellStorm(state, s(36), POLICY);
    expect(over).to.deep.equal({ state: CALM, stage: 'over' });
  });

  it('is over after the quiet period without a new failure, with incidents still down (their later events go out alone)', () => {
    const told = tellStorm(stormOf(5), s(5), POLICY).state;
    const recovering = routeAll(told, [resolved(1, 100)]).state;
    const followUp = tellStorm(recovering, s(105), POLICY).state;
    expect(stormDueAt(followUp, POLICY)).to.equal(s(1800));
    const over = tellStorm(followUp, s(1800), POLICY);
    expect(over).to.deep.equal({ state: CALM, stage: 'over' });
    expect(routeInStorm(over.state, resolved(2, 2000), POLICY).decision).to.equal('alone');
  });

  it('a second storm later: alone openings again, then a storm of its own with its own first digest', () => {
    const firstOver = tellStorm(
      routeAll(
        tellStorm(stormOf(4), s(5), POLICY).state,
        [1, 2, 3, 4].map((n) => resolved(n, 10)),
      ).state,
      s(10),
      POLICY,
    );
    expect(firstOver.stage).to.equal('over');
    const { state, decisions } = routeAll(firstOver.state, [opened(21, 3000), opened(22, 3000), opened(23, 3001), opened(24, 3002)]);
    expect(decisions).to.deep.equal(['alone', 'alone', 'alone', 'held']);
    expect(state.storm).to.deep.include({ startedAt: s(3002), total: 4, toldAt: null });
    expect(tellStorm(state, s(3007), POLICY).stage).to.equal('started');
  });

  it('a storm all recovered before its first digest ends with one message: over', () => {
    const { state } = routeAll(
      stormOf(4),
      [1, 2, 3, 4].map((n) => resolved(n, 1)),
    );
    expect(tellStorm(state, s(1), POLICY).stage).to.equal('over');
  });

  it("each message says the storm's state in one line and lists its changes", () => {
    const storm = stormOf(37).storm!;
    const first = stormMessage(
      'started',
      { id: 7, name: 'Acme' },
      storm,
      [change('incident.opened', 4), change('incident.opened', 5)],
      new Date(s(5)),
    );
    expect(first).to.deep.include({
      event: 'incident.digest',
      incidentId: null,
      monitorId: null,
      customerId: 7,
      occurredAt: new Date(s(5)).toISOString(),
    });
    expect(first.summary).to.equal('37 monitors of Acme are down: site-4.example.com is down; site-5.example.com is down');
    expect(first.data).to.deep.include({
      digestOf: 'incident.opened',
      stage: 'started',
      count: 2,
      opened: 2,
      resolved: 0,
      down: 37,
      total: 37,
    });
    expect((first.data.incidents as unknown[])[0]).to.deep.equal({
      incidentId: 'inc-4',
      monitorId: 104,
      change: 'opened',
      monitorPublicId: 'm-4',
      summary: 'site-4.example.com is down',
      occurredAt: new Date(s(4)).toISOString(),
    });
    const update = stormMessage(
      'update',
      { id: 7, name: 'Acme' },
      storm,
      [change('incident.opened', 40), change('incident.resolved', 1), change('incident.resolved', 2)],
      new Date(s(65)),
    );
    expect(update.summary).to.match(/^Acme: 1 more down, 2 recovered; 37 still down: /);
    expect(update.data).to.deep.include({ digestOf: 'incident.opened', stage: 'update', opened: 1, resolved: 2 });
    const recoveries = stormMessage('update', { id: 7, name: 'Acme' }, storm, [change('incident.resolved', 1)], new Date(s(65)));
    expect(recoveries.data.digestOf).to.equal('incident.resolved');
    const calm = { ...storm, down: [] };
    expect(stormMessage('over', { id: 7, name: 'Acme' }, calm, [], new Date(s(90))).summary).to.equal(
      'Acme: storm over, all 37 monitors recovered',
    );
    expect(stormMessage('over', { id: 7, name: 'Acme' }, { ...storm, down: ['inc-1', 'inc-2'] }, [], new Date(s(90))).summary).to.equal(
      'Acme: storm over (quiet), 35 of 37 recovered, 2 still down',
    );
  });

  it('renders a storm digest for every channel kind: webhook JSON, a compact list in chat and e-mail, one short SMS', () => {
    const changes = Array.from({ length: 25 }, (_, i) => change('incident.opened', i + 1));
    const message = { ...stormMessage('started', { id: 7, name: 'Acme' }, stormOf(25).storm!, changes, new Date(s(5))), id: 'd-1' };
    const hook = webhookPayload(message);
    expect(hook).to.include({ event: 'incident.digest' });
    expect((hook.data as { incidents: unknown[] }).incidents).to.have.length(25);
    const lines = digestLines(message);
    expect(lines).to.have.length(21);
    expect(lines[0]).to.equal(`- site-1.example.com is down (${new Date(s(1)).toISOString()})`);
    expect(lines[20]).to.equal('- and 5 more');
    const slack = chatPayload('slack', message, null);
    expect(slack.text).to.match(/^Monitors down: 25 monitors of Acme are down/);
    expect(JSON.stringify(slack.blocks)).to.include('site-20.example.com is down').and.not.include('site-21.example.com');
    const discord = chatPayload('discord', message, null) as { embeds: Array<{ title: string; color: number }> };
    expect(discord.embeds[0]).to.include({ title: 'Monitors down', color: 0xd93025 });
    const mail = emailContent(message);
    expect(mail.subject).to.match(/^Monitors down: 25 monitors of Acme are down/);
    expect(mail.text).to.include('- site-7.example.com is down');
    const sms = smsContent(message);
    expect(sms.length).to.be.at.most(160);
    expect(sms).to.match(/^Monitors down: 25 monitors of Acme are down: site-1\.example\.com is down/);
  });
});
