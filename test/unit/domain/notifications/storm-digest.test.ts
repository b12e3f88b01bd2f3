import { expect } from 'chai';
import { countInWindow, digestLines, digestMessage, digestSummary, groupsInStorms, type HeldEvent } from '../../../../src/domain/notifications/storm-digest';
import { chatPayload, emailContent, smsContent, webhookPayload } from '../../../../src/domain/notifications/notification-message';

const POLICY = { alone: 3, windowMs: 60_000 };
const at = (seconds: number) => new Date(Date.UTC(2026, 11, 12, 10, 0, seconds));
const held = (n: number): HeldEvent[] => Array.from({ length: n }, (_, i) => ({
  incidentId: `inc-${i + 1}`, monitorId: 100 + i, summary: `site-${i + 1}.example.com is down`, occurredAt: at(i).toISOString(),
  data: { monitorPublicId: `m-${i + 1}` },
}));

describe('storm digests (domain)', () => {
  it('groups incident transitions of a customer, not other events, organization-wide events, or with the window at 0', () => {
    expect(groupsInStorms('incident.opened', 7, POLICY)).to.equal(true);
    expect(groupsInStorms('incident.resolved', 7, POLICY)).to.equal(true);
    expect(groupsInStorms('incident.reminder', 7, POLICY)).to.equal(true);
    expect(groupsInStorms('incident.acknowledged', 7, POLICY)).to.equal(false);
    expect(groupsInStorms('maintenance.started', 7, POLICY)).to.equal(false);
    expect(groupsInStorms('incident.opened', null, POLICY)).to.equal(false);
    expect(groupsInStorms('incident.opened', 7, { alone: 3, windowMs: 0 })).to.equal(false);
  });

  it('sends the first `alone` of a window at once and holds the rest until the window ends', () => {
    let window = null;
    const verdicts: boolean[] = [];
    for (let i = 0; i < 5; i += 1) {
      const counted = countInWindow(window, at(i), POLICY);
      window = counted.window;
      verdicts.push(counted.held);
    }
    expect(verdicts).to.deep.equal([false, false, false, true, true]);
    expect(window).to.deep.equal({ endsAt: at(60), events: 5 });
  });

  it('starts a new window once the last one ended: its first event goes out alone again', () => {
    const ended = { endsAt: at(60), events: 9 };
    expect(countInWindow(ended, at(59), POLICY)).to.deep.equal({ window: { endsAt: at(60), events: 10 }, held: true });
    expect(countInWindow(ended, at(60), POLICY)).to.deep.equal({ window: { endsAt: new Date(at(60).getTime() + 60_000), events: 1 }, held: false });
  });

  it('holds everything past zero alone events (every event waits for the digest)', () => {
    expect(countInWindow(null, at(0), { alone: 0, windowMs: 1_000 }).held).to.equal(true);
  });

  it('a digest lists every held incident, says how many in one line, and is dated at the window end', () => {
    const message = digestMessage('incident.opened', 7, held(5), { startedAt: at(0), endedAt: at(60) });
    expect(message).to.deep.include({ event: 'incident.digest', occurredAt: at(60).toISOString(), incidentId: null, monitorId: null, customerId: 7 });
    expect(message.summary).to.equal('5 more monitors are down: site-1.example.com is down; site-2.example.com is down; site-3.example.com is down; and 2 more');
    expect(message.data).to.deep.include({ digestOf: 'incident.opened', count: 5, windowStartedAt: at(0).toISOString(), windowEndedAt: at(60).toISOString() });
    expect((message.data.incidents as unknown[])[0]).to.deep.equal({
      incidentId: 'inc-1', monitorId: 100, monitorPublicId: 'm-1', summary: 'site-1.example.com is down', occurredAt: at(0).toISOString(),
    });
    expect(digestSummary('incident.resolved', held(1))).to.equal('1 more monitor recovered: site-1.example.com is down');
  });

  it('renders a digest for every channel kind: webhook JSON, a compact list in chat and e-mail, one short SMS', () => {
    const message = { ...digestMessage('incident.opened', 7, held(25), { startedAt: at(0), endedAt: at(60) }), id: 'd-1' };
    const hook = webhookPayload(message);
    expect(hook).to.include({ event: 'incident.digest' });
    expect((hook.data as { incidents: unknown[] }).incidents).to.have.length(25);
    const lines = digestLines(message);
    expect(lines).to.have.length(21);
    expect(lines[0]).to.equal(`- site-1.example.com is down (${at(0).toISOString()})`);
    expect(lines[20]).to.equal('- and 5 more');
    const slack = chatPayload('slack', message, null);
    expect(slack.text).to.match(/^Monitors down: 25 more monitors are down/);
    expect(JSON.stringify(slack.blocks)).to.include('site-20.example.com is down').and.not.include('site-21.example.com');
    const discord = chatPayload('discord', message, null) as { embeds: Array<{ title: string; color: number }> };
    expect(discord.embeds[0]).to.include({ title: 'Monitors down', color: 0xd93025 });
    const mail = emailContent(message);
    expect(mail.subject).to.match(/^Monitors down: 25 more monitors are down/);
    expect(mail.text).to.include('- site-7.example.com is down');
    const sms = smsContent(message);
    expect(sms.length).to.be.at.most(160);
    expect(sms).to.match(/^Monitors down: 25 more monitors are down: site-1\.example\.com is down/);
  });
});
