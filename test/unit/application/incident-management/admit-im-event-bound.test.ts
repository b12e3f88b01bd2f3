import { expect } from 'chai';
import { ManualClock } from '../../../support/manual-clock';
import { FakeSharedRateCounter } from '../../../support/fakes/shared-fakes';
import { AdmitImEvent } from '../../../../src/application/incident-management/admit-im-event';

const RULE = { name: 'im-events', limit: 600, windowSeconds: 60 };
const FLUSH = { maxUnflushed: 20, everyMs: 60_000 };

/** Asks `admit` once; true when admitted (waiting for a write of its share when it has to). */
async function ask(admit: AdmitImEvent, organizationId: number): Promise<boolean> {
  return (await admit.decide(organizationId)) === null;
}

describe('the event rate counted in the process', () => {
  it('is exact with one process: 600 admitted in a window, written to the shared counter in batches of at most 20', async () => {
    const counter = new FakeSharedRateCounter();
    const clock = new ManualClock(new Date('2026-11-25T10:00:00.000Z'));
    const admit = new AdmitImEvent(counter, clock, RULE, FLUSH);
    let admitted = 0;
    for (let i = 0; i < 700; i++) if (await ask(admit, 7)) admitted++;
    await admit.write();
    expect(admitted).to.equal(600);
    expect(counter.total('im-events', '7')).to.equal(600);
    // The window's total read before the first event, then 30 writes of 20.
    expect(counter.adds).to.equal(31);
  });

  for (const processes of [2, 4, 8]) {
    it(`admits fewer than limit + N x maxUnflushed across ${processes} processes sharing the counter, whatever the interleaving`, async () => {
      const counter = new FakeSharedRateCounter();
      const clock = new ManualClock(new Date('2026-11-25T10:00:00.000Z'));
      const admits = Array.from({ length: processes }, () => new AdmitImEvent(counter, clock, RULE, FLUSH));
      let admitted = 0;
      // Each process takes its share as fast as it can, writing only when it must (the worst case for the bound).
      let seed = processes;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      for (let i = 0; i < 4_000; i++) if (await ask(admits[Math.floor(random() * processes)]!, 1)) admitted++;
      for (const admit of admits) await admit.write();
      const bound = RULE.limit + processes * FLUSH.maxUnflushed;
      expect(admitted).to.be.at.least(RULE.limit).and.below(bound);
      expect(counter.total('im-events', '1')).to.equal(admitted);
      // Each process refuses once it has read a total at the limit.
      for (const admit of admits) expect(await admit.decide(1)).to.be.a('number');
    });
  }

  it('reaches the bound when every process admits its unwritten share on a stale total', async () => {
    const counter = new FakeSharedRateCounter();
    const clock = new ManualClock(new Date('2026-11-25T10:00:00.000Z'));
    const [a, b, c] = Array.from({ length: 3 }, () => new AdmitImEvent(counter, clock, RULE, FLUSH));
    // A takes the window to 590 on its own; B and C each admit 19 without knowing of it.
    let admitted = 0;
    for (let i = 0; i < 19; i++) admitted += Number(await ask(b!, 1)) + Number(await ask(c!, 1));
    for (let i = 0; i < 590; i++) admitted += Number(await ask(a!, 1));
    await a!.write();
    for (let i = 0; i < 40; i++) admitted += Number(await ask(a!, 1));
    await Promise.all([a!.write(), b!.write(), c!.write()]);
    expect(admitted).to.equal(600 + 2 * 19);
    expect(admitted).to.be.below(RULE.limit + 3 * FLUSH.maxUnflushed);
  });

  it('reads the shared total before the first event of a window: a window other processes used up is refused from the first event', async () => {
    const counter = new FakeSharedRateCounter();
    const clock = new ManualClock(new Date('2026-11-25T10:00:00.000Z'));
    await counter.add(RULE, clock.now(), new Map([['3', 600]]));
    const admit = new AdmitImEvent(counter, clock, RULE, FLUSH);
    expect(await admit.decide(3)).to.equal(60);
    expect(await admit.decide(4)).to.equal(null);
    await admit.write();
    expect(counter.total('im-events', '3')).to.equal(600);
  });

  it('keeps hits whose write failed and writes them with the next; counts a new window from zero', async () => {
    const counter = new FakeSharedRateCounter();
    const clock = new ManualClock(new Date('2026-11-25T10:00:50.000Z'));
    const admit = new AdmitImEvent(counter, clock, { ...RULE, limit: 5 }, FLUSH);
    for (let i = 0; i < 3; i++) expect(await ask(admit, 1)).to.equal(true);
    counter.failNext = true;
    await admit.write().catch(() => undefined);
    expect(counter.total('im-events', '1')).to.equal(0);
    expect(await ask(admit, 1)).to.equal(true);
    expect(await ask(admit, 1)).to.equal(true);
    expect(await admit.decide(1)).to.equal(10);
    await admit.write();
    expect(counter.total('im-events', '1')).to.equal(5);
    clock.advance(10_000);
    expect(await ask(admit, 1)).to.equal(true);
  });

  it('writes every hit it admitted and has not written when flushed (a graceful stop), a write under way included', async () => {
    const counter = new FakeSharedRateCounter();
    const clock = new ManualClock(new Date('2026-11-25T10:00:00.000Z'));
    const admit = new AdmitImEvent(counter, clock, RULE, FLUSH);
    // The first event of each window waits for its total (organization 2's read writes 1's first hit).
    expect(await ask(admit, 1)).to.equal(true);
    expect(await ask(admit, 2)).to.equal(true);
    for (let i = 0; i < 2; i++) expect(await ask(admit, 1)).to.equal(true);
    for (let i = 0; i < 3; i++) expect(await ask(admit, 2)).to.equal(true);
    // The rest waits for the timer (a minute here).
    expect(counter.total('im-events', '1')).to.equal(1);
    expect(counter.total('im-events', '2')).to.equal(0);
    const underWay = admit.write();
    for (let i = 0; i < 2; i++) expect(await ask(admit, 1)).to.equal(true);
    await admit.flushPending();
    expect(counter.total('im-events', '1')).to.equal(5);
    expect(counter.total('im-events', '2')).to.equal(4);
    await underWay;
    await admit.flushPending();
    expect(counter.total('im-events', '1')).to.equal(5);
  });
});
