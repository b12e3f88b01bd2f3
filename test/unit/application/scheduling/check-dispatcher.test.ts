import { expect } from 'chai';
import { CheckDispatcher, RECORD_CHUNK, SEARCH_ALONE_EVERY_MS } from '../../../../src/application/scheduling/check-dispatcher';
import type { ClaimedCheck } from '../../../../src/application/scheduling/ports';
import type { CheckRequest } from '../../../../src/domain/checks/check-request';
import type { CheckResult } from '../../../../src/domain/checks/check-result';
import { latenessBetween } from '../../../../src/domain/scheduling/lateness-histogram';
import { FakeOutcomeRecorder, FakePlanner, FakeSchedule } from '../../../support/fakes/scheduling-fakes';
import { CLOCK_START, ManualClock } from '../../../support/manual-clock';
import { aCheckResult } from '../../../support/builders';

const start = CLOCK_START.getTime();
const MIN = 60_000;
const planner = new FakePlanner();

/** Rows due `offsetMs` from the start (monitor i on a one-minute grid). */
const rows = (n: number, offsetMs = -250): ClaimedCheck[] =>
  Array.from({ length: n }, (_, i) => ({
    monitorId: i + 1,
    location: 'eu',
    slot: new Date(start + offsetMs),
    intervalMs: MIN,
    phaseMs: (start + offsetMs) % MIN,
  }));
const up = (at: number): CheckResult => aCheckResult().at(at).build();
const options = { workerId: 'w', locations: ['eu'], batchSize: 100, maxInFlight: 150, leaseMs: 90_000 };
const settle = () => new Promise((resolve) => setImmediate(resolve));

function anEngine(schedule: FakeSchedule, opts: Partial<typeof options> = {}) {
  const clock = new ManualClock();
  const recorder = new FakeOutcomeRecorder();
  const ran: Array<{ host: string; at: number }> = [];
  const pending: Array<() => void> = [];
  let hold = false;
  const dispatcher = new CheckDispatcher(
    schedule,
    planner,
    (request) => {
      ran.push({ host: (request as { host: string }).host, at: clock.ms });
      const at = clock.ms;
      return hold ? new Promise((resolve) => pending.push(() => resolve(up(at)))) : Promise.resolve(up(at));
    },
    recorder,
    clock,
    { ...options, ...opts },
  );
  return { dispatcher, clock, recorder, ran, pending, holdChecks: () => (hold = true) };
}

/** Workers of one schedule on one clock, each named, with a 15-s lease (a dead one's rows wait that long). */
function peersOn(schedule: FakeSchedule) {
  const clock = new ManualClock();
  const engine = (workerId: string) =>
    new CheckDispatcher(schedule, planner, async () => up(clock.ms), new FakeOutcomeRecorder(), clock, {
      ...options,
      workerId,
      leaseMs: 15_000,
    });
  return { clock, engine };
}

describe('CheckDispatcher', () => {
  it('claims rows once and runs every slot of them from memory, each on its grid, never before its slot', async () => {
    const schedule = new FakeSchedule([
      { monitorId: 1, location: 'eu', slot: new Date(start + 300), intervalMs: MIN, phaseMs: 300 },
      { monitorId: 2, location: 'eu', slot: new Date(start + 2_000), intervalMs: 2 * MIN, phaseMs: 2_000 },
    ]);
    const { dispatcher, clock, ran } = anEngine(schedule, { leaseMs: 10 * MIN });
    expect(await dispatcher.pump()).to.equal(2);
    expect(ran, 'nothing is due yet').to.deep.equal([]);
    clock.advance(299);
    expect(dispatcher.startDue()).to.equal(0);
    for (let t = 0; t < 5 * MIN; t += 250) {
      clock.advance(250);
      dispatcher.startDue();
      await settle();
    }
    await dispatcher.pump();
    expect(schedule.claims, 'claims per round, none per check').to.be.at.most(2);
    const slotsOf = (host: string) => ran.filter((r) => r.host === host).map((r) => r.at - start);
    const h1 = slotsOf('h1');
    const h2 = slotsOf('h2');
    expect(h1).to.have.length(5);
    expect(h2).to.have.length(3);
    h1.forEach((at, k) => expect(at - (300 + k * MIN)).to.be.within(0, 300));
    h2.forEach((at, k) => expect(at - (2_000 + k * 2 * MIN)).to.be.within(0, 300));
    const lateness = latenessBetween([], dispatcher.stats.lateness.snapshot());
    expect(lateness.count).to.equal(8);
    expect(lateness.max()).to.be.below(310);
  });

  it('runs at most maxInFlight checks at once; the rest start as soon as room comes back', async () => {
    const schedule = new FakeSchedule(rows(400));
    const { dispatcher, pending, holdChecks } = anEngine(schedule);
    holdChecks();
    expect(await dispatcher.pump()).to.equal(400);
    expect(dispatcher.running).to.equal(150);
    const lateness = latenessBetween([], dispatcher.stats.lateness.snapshot());
    expect([lateness.count, lateness.percentile(0.01), lateness.max()]).to.deep.equal([150, 259, 259]); // 250 ms, in the 250-259 ms bucket
    pending.splice(0, 40).forEach((finish) => finish());
    await settle();
    expect(dispatcher.stats.started, 'without waiting for the next tick').to.equal(190);
    expect(dispatcher.running).to.equal(150);
    pending.forEach((finish) => finish());
  });

  it('records finished checks in chunks of RECORD_CHUNK', async () => {
    const total = 2 * RECORD_CHUNK + 50;
    const { dispatcher, recorder } = anEngine(new FakeSchedule(rows(total)), { maxInFlight: 5000, batchSize: 5000 });
    await dispatcher.pump();
    await settle();
    expect(dispatcher.unrecorded).to.equal(total);
    expect(await dispatcher.flush()).to.equal(total);
    expect(recorder.batches.map((b) => b.length)).to.deep.equal([RECORD_CHUNK, RECORD_CHUNK, 50]);
    expect(dispatcher.stats).to.include({ started: total, recorded: total, dropped: 0 });
  });

  it('applies logged changes to held rows: a trigger runs now, a new interval moves the grid, a paused monitor is forgotten with its unrecorded outcome', async () => {
    const schedule = new FakeSchedule(rows(3, 30_000));
    const { dispatcher, clock, ran, recorder } = anEngine(schedule, { leaseMs: 10 * MIN });
    await dispatcher.pump();
    clock.advance(30_100);
    dispatcher.startDue();
    await settle();
    expect(ran.map((r) => r.host)).to.deep.equal(['h1', 'h2', 'h3']);

    schedule.change(1, {}, true);
    schedule.change(2, { intervalMs: 5 * MIN, phaseMs: 7_000 });
    schedule.change(3, 'gone');
    await dispatcher.pump();
    expect(
      ran.slice(3).map((r) => r.host),
      'the trigger starts at once',
    ).to.deep.equal(['h1']);
    await settle();
    await dispatcher.flush();
    expect(
      recorder.batches
        .flat()
        .map((o) => o.planned.check.monitorId)
        .sort(),
    ).to.deep.equal([1, 1, 2]);
    expect(dispatcher.stats).to.include({ dropped: 1, held: 2 });

    ran.length = 0;
    for (let t = 0; t < 6 * MIN; t += 250) {
      clock.advance(250);
      dispatcher.startDue();
      await settle();
    }
    const h2 = ran.filter((r) => r.host === 'h2').map((r) => r.at);
    expect(h2).to.have.length(1);
    expect((h2[0]! - 7_000) % (5 * MIN), 'on the new grid').to.be.within(0, 300);
    expect(ran.some((r) => r.host === 'h3')).to.equal(false);
  });

  it('runs a confirmation check at its time, off the grid, and the next regular check on the grid', async () => {
    const schedule = new FakeSchedule(rows(2, 1_000));
    const { dispatcher, clock, ran } = anEngine(schedule, { leaseMs: 10 * MIN });
    await dispatcher.pump();
    clock.advance(1_100);
    dispatcher.startDue();
    await settle();
    expect(ran.map((r) => r.host)).to.deep.equal(['h1', 'h2']);
    // Monitor 1's result asked for a confirmation 20 s after its check.
    await schedule.confirmAt([{ monitorId: 1, at: new Date(start + 21_000) }]);
    await dispatcher.pump();
    expect(ran, 'not before its time').to.have.length(2);
    ran.length = 0;
    for (let t = 0; t < 2 * MIN; t += 250) {
      clock.advance(250);
      dispatcher.startDue();
      await settle();
    }
    const h1 = ran.filter((r) => r.host === 'h1').map((r) => r.at - start);
    expect(h1).to.have.length(3);
    expect(h1[0]! - 21_000, 'the confirmation at its time').to.be.within(0, 300);
    expect(
      h1.slice(1).map((at) => at - 1_000),
      'then back on the grid',
    ).to.satisfy((offsets: number[]) => offsets.every((offset, k) => offset - (k + 1) * MIN >= 0 && offset - (k + 1) * MIN <= 300));
    expect(
      ran.filter((r) => r.host === 'h2'),
      'the other monitor is not touched',
    ).to.have.length(2);
  });

  it('runs what a changed monitor now asks for (config edits, heartbeat beats): the plan is read again', async () => {
    const schedule = new FakeSchedule(rows(1, 30_000));
    let version = 1;
    const versioned = new FakePlanner((): CheckRequest => ({ kind: 'tcp', host: `v${version}`, port: 1, timeoutSeconds: 5 }));
    const clock = new ManualClock();
    const ran: string[] = [];
    const dispatcher = new CheckDispatcher(
      schedule,
      versioned,
      async (request) => {
        ran.push((request as { host: string }).host);
        return up(clock.ms);
      },
      new FakeOutcomeRecorder(),
      clock,
      options,
    );
    await dispatcher.pump();
    version = 2;
    schedule.change(1, {});
    await dispatcher.pump();
    clock.advance(30_100);
    dispatcher.startDue();
    expect(ran).to.deep.equal(['v2']);
  });

  it('reads each change once, even while it is read again until settled', async () => {
    const schedule = new FakeSchedule(rows(1, 30_000));
    const { dispatcher, ran } = anEngine(schedule);
    await dispatcher.pump();
    schedule.change(1, {}, true);
    await dispatcher.pump();
    await settle();
    await dispatcher.pump();
    await settle();
    expect(ran).to.have.length(1);
  });

  it('once fenced, drops what it did not record, forgets its rows and registers again under a new generation', async () => {
    const schedule = new FakeSchedule(rows(2));
    const { dispatcher, recorder, clock } = anEngine(schedule);
    await dispatcher.pump();
    await settle();
    const first = dispatcher.workerId;
    recorder.fenced = true;
    expect(await dispatcher.flush()).to.equal(2);
    expect(dispatcher.stats).to.include({ recorded: 0, dropped: 2, held: 0 });
    expect(dispatcher.workerId).to.not.equal(first);

    schedule.workers.get(first)!.until = -Infinity; // fenced
    for (const row of schedule.rows.values()) row.holder = null; // another worker took them over and stopped
    clock.advance(1_000);
    expect(await dispatcher.pump()).to.equal(2);
    expect([...schedule.rows.values()].map((r) => r.holder)).to.deep.equal([dispatcher.workerId, dispatcher.workerId]);
    expect(schedule.workers.has(dispatcher.workerId)).to.equal(true);
  });

  it('stops a claim round when recording finds the worker fenced meanwhile, holding nothing it claimed under the old name', async () => {
    const schedule = new FakeSchedule(rows(2));
    const { dispatcher, recorder, clock } = anEngine(schedule);
    await dispatcher.pump();
    await settle();
    clock.advance(10_000); // its share is counted again: 4 rows
    for (const check of rows(4).slice(2)) schedule.add(check);
    const claim = schedule.claim.bind(schedule);
    schedule.claim = async (input) => {
      const claimed = await claim(input);
      recorder.fenced = true;
      await dispatcher.flush();
      return claimed;
    };
    await dispatcher.pump();
    expect(dispatcher.stats.held).to.equal(0);
    expect(dispatcher.stats.started).to.equal(2);
  });

  describe('quiet rounds (no notice woke them, and notices come)', () => {
    const searches = (schedule: FakeSchedule) => ({ claims: schedule.claims, changeReads: schedule.changeReads });

    it('alone in its locations, it neither claims nor reads the change log but every SEARCH_ALONE_EVERY_MS; a round a notice woke does', async () => {
      const schedule = new FakeSchedule(rows(2, 30_000));
      const { dispatcher, clock } = anEngine(schedule);
      expect(await dispatcher.pump({ quiet: true }), 'its first round searches, quiet or not').to.equal(2);
      schedule.add({ ...rows(3, 30_000)[2]! });
      const before = searches(schedule);
      for (let t = 5_000; t < SEARCH_ALONE_EVERY_MS; t += 5_000) {
        clock.advance(5_000);
        expect(await dispatcher.pump({ quiet: true })).to.equal(0);
      }
      expect(searches(schedule), 'counted alone: nothing searched for a minute').to.deep.equal(before);
      expect(await dispatcher.pump(), 'woken by the new row').to.equal(1);
      expect(searches(schedule)).to.deep.equal({ claims: before.claims + 1, changeReads: before.changeReads + 1 });
      clock.advance(SEARCH_ALONE_EVERY_MS - 1);
      await dispatcher.pump({ quiet: true });
      expect(schedule.claims, 'a minute since the last search: not yet').to.equal(before.claims + 1);
      clock.advance(1);
      await dispatcher.pump({ quiet: true });
      expect(searches(schedule), 'the fallback for a lost notice').to.deep.equal({
        claims: before.claims + 2,
        changeReads: before.changeReads + 2,
      });
    });

    it('still renews and starts what is due', async () => {
      const schedule = new FakeSchedule(rows(1, 1_000));
      const { dispatcher, clock, ran } = anEngine(schedule, { leaseMs: 10_000 });
      await dispatcher.pump({ quiet: true });
      clock.advance(2_000);
      await dispatcher.pump({ quiet: true });
      expect(
        ran.map((r) => r.host),
        'its slot came',
      ).to.deep.equal(['h1']);
      expect(schedule.renewals, 'a fifth of the lease had passed').to.equal(1);
    });

    it('claims in every round while another worker is registered for one of its locations, live, lapsed or fenced with rows', async () => {
      const schedule = new FakeSchedule(rows(4, 30_000));
      const { clock, engine } = peersOn(schedule);
      const survivor = engine('survivor');
      const dying = engine('dying');
      await survivor.pump({ quiet: true });
      await dying.pump({ quiet: true });
      clock.advance(10_000);
      // The dying worker's registration notified check_schedule: the survivor's next round is a notice's.
      await survivor.pump();
      await dying.pump({ quiet: true });
      expect([survivor.stats.held, dying.stats.held], 'a share of 2, and the slack over it').to.deep.equal([3, 1]);
      // The dying worker's lease (renewed 10 s ago at the latest) lapses 15 s on; quiet rounds take its rows over at once.
      const before = schedule.claims;
      clock.advance(5_000);
      await survivor.pump({ quiet: true });
      expect(schedule.claims, 'a peer registered: the round claims').to.equal(before + 1);
      clock.advance(11_000);
      await survivor.pump({ quiet: true });
      expect(survivor.stats.held, "the dead peer's rows, in the first quiet round after its lease").to.equal(4);
      // Once fenced and left without rows it is pruned; the next count finds the survivor alone.
      for (let t = 0; t < 60_000; t += 5_000) {
        clock.advance(5_000);
        await survivor.pump({ quiet: true });
      }
      expect(schedule.workers.has(dying.workerId), 'pruned').to.equal(false);
      const claims = schedule.claims;
      clock.advance(5_000);
      await survivor.pump({ quiet: true });
      clock.advance(5_000);
      await survivor.pump({ quiet: true });
      expect(schedule.claims, 'alone again: quiet rounds claim nothing').to.equal(claims);
    });

    it('a worker registered anew after a fence searches in its first round', async () => {
      const schedule = new FakeSchedule(rows(2, 30_000));
      const { dispatcher, recorder, clock } = anEngine(schedule);
      await dispatcher.pump({ quiet: true });
      clock.advance(29_000);
      dispatcher.startDue();
      clock.advance(1_500);
      dispatcher.startDue();
      await settle();
      recorder.fenced = true;
      await dispatcher.flush();
      expect(dispatcher.stats.held, 'fenced: it forgot its rows').to.equal(0);
      for (const row of schedule.rows.values()) row.holder = null; // taken over, then handed back
      recorder.fenced = false;
      clock.advance(1_000);
      expect(await dispatcher.pump({ quiet: true })).to.equal(2);
    });
  });

  it('forgets its rows when a renewal finds it lapsed', async () => {
    const schedule = new FakeSchedule(rows(1, 30_000));
    const { dispatcher, clock } = anEngine(schedule, { leaseMs: 1_000 });
    await dispatcher.pump();
    const first = dispatcher.workerId;
    clock.advance(2_000);
    expect(await dispatcher.pump()).to.equal(0);
    expect(dispatcher.stats.held).to.equal(0);
    expect(dispatcher.workerId).to.not.equal(first);
  });

  it('renews in a claim round only once a fifth of its lease has passed since the last renewal, a recording counting as one', async () => {
    const schedule = new FakeSchedule(rows(1, 30_000));
    const { dispatcher, clock } = anEngine(schedule, { leaseMs: 10_000 });
    await dispatcher.pump();
    clock.advance(1_999);
    await dispatcher.pump();
    expect(schedule.renewals, 'registered 2 s ago at most: no renewal').to.equal(0);
    clock.advance(1);
    await dispatcher.pump();
    expect(schedule.renewals).to.equal(1);
    clock.advance(30_000);
    dispatcher.startDue();
    await settle();
    await dispatcher.flush();
    clock.advance(1_000);
    await dispatcher.pump();
    expect(schedule.renewals, 'the recording 1 s ago renewed it').to.equal(1);
  });

  it("splits a location's rows evenly with a worker that joins later: the first hands back its excess", async () => {
    const schedule = new FakeSchedule(rows(100, 30_000));
    const clock = new ManualClock();
    const engine = (workerId: string) =>
      new CheckDispatcher(schedule, planner, async () => up(clock.ms), new FakeOutcomeRecorder(), clock, { ...options, workerId });
    const first = engine('first');
    expect(await first.pump()).to.equal(100);
    const second = engine('second');
    expect(await second.pump(), 'everything is held').to.equal(0);
    clock.advance(10_000);
    await first.pump();
    expect(first.stats.held, 'its share of 50, and 5 % over it').to.equal(53);
    expect(await second.pump()).to.equal(47);
    expect(await first.pump(), 'the first claims no more than its share').to.equal(0);
    const holders = [...schedule.rows.values()].map((r) => r.holder);
    expect(holders.filter((h) => h === first.workerId)).to.have.length(53);
    expect(holders.filter((h) => h === second.workerId)).to.have.length(47);
  });

  it("takes a dead peer's rows over in its first round after the peer's lease lapsed, though that puts it over its share", async () => {
    const schedule = new FakeSchedule(rows(100, 30_000));
    const { clock, engine } = peersOn(schedule);
    const survivor = engine('survivor');
    const dying = engine('dying');
    await survivor.pump();
    await dying.pump();
    clock.advance(10_000);
    await survivor.pump();
    await dying.pump();
    expect([survivor.stats.held, dying.stats.held], 'split: a share of 50, and 5 % over it').to.deep.equal([53, 47]);
    // The dying worker renewed last now (its lease runs 15 s more), and dies. The survivor counts
    // the shares 10 s later (two workers: the dead one is still within its lease) and next 10 s
    // after that; its round in between, once the lease has lapsed, must take the dead one's rows
    // whatever the survivor's share was.
    clock.advance(10_000);
    await survivor.pump();
    expect(survivor.stats.held, 'the dead worker still within its lease').to.equal(53);
    clock.advance(5_500);
    await survivor.pump();
    expect(survivor.stats.held, 'every row, at the first round after the lease').to.equal(100);
    expect(schedule.heldBy(dying.workerId)).to.deep.equal([]);
    clock.advance(10_000);
    await survivor.pump();
    expect(survivor.stats.held, 'alone now: it keeps them').to.equal(100);
  });

  it('counts shares per location: a worker alone in its region holds all of it, and splits only the locations it shares', async () => {
    const at = (location: string, n: number, from: number): ClaimedCheck[] =>
      Array.from({ length: n }, (_, i) => ({
        monitorId: from + i,
        location,
        slot: new Date(start + 30_000),
        intervalMs: MIN,
        phaseMs: 30_000,
      }));
    const schedule = new FakeSchedule([...at('eu', 40, 1), ...at('us', 40, 101), ...at('heartbeat', 40, 201)]);
    const clock = new ManualClock();
    const engine = (workerId: string, locations: string[]) =>
      new CheckDispatcher(schedule, planner, async () => up(clock.ms), new FakeOutcomeRecorder(), clock, {
        ...options,
        workerId,
        locations,
      });
    const europe = engine('europe', ['eu', 'heartbeat']);
    const america = engine('america', ['us', 'heartbeat']);
    await europe.pump();
    await america.pump();
    clock.advance(10_000);
    await europe.pump();
    await america.pump();
    await europe.pump();
    const count = (workerId: string, location: string) =>
      [...schedule.rows.values()].filter((r) => r.holder === workerId && r.check.location === location).length;
    expect([count(europe.workerId, 'eu'), count(america.workerId, 'us')], 'each region whole').to.deep.equal([40, 40]);
    expect(count(europe.workerId, 'heartbeat') + count(america.workerId, 'heartbeat')).to.equal(40);
    expect(count(europe.workerId, 'heartbeat'), 'heartbeats split: 20 and 5 % over').to.be.within(19, 21);
  });

  it('hands back no row whose outcome still waits to be recorded', async () => {
    const schedule = new FakeSchedule(rows(4));
    const { dispatcher, clock, recorder } = anEngine(schedule);
    await dispatcher.pump();
    await settle();
    schedule.workers.set('another', { until: Infinity, locations: ['eu'] }); // a second live worker: a share of 2 each
    clock.advance(10_000);
    await dispatcher.pump();
    expect(dispatcher.stats.held, 'all four wait to be recorded').to.equal(4);
    await dispatcher.flush();
    clock.advance(10_000);
    await dispatcher.pump();
    expect(dispatcher.stats.held, 'its share of 2, and 5 % over it').to.equal(3);
    expect(recorder.batches.flat()).to.have.length(4);
    expect(dispatcher.stats.dropped).to.equal(0);
  });

  it('turns a check that throws into a down result instead of losing it', async () => {
    const schedule = new FakeSchedule(rows(1));
    const recorder = new FakeOutcomeRecorder();
    const dispatcher = new CheckDispatcher(
      schedule,
      planner,
      async () => {
        throw new Error('boom');
      },
      recorder,
      new ManualClock(),
      options,
    );
    await dispatcher.pump();
    await settle();
    await dispatcher.flush();
    expect(recorder.batches[0]![0]!.result).to.deep.include({ status: 'down' });
    expect(recorder.batches[0]![0]!.result.reason).to.deep.include({ code: 'protocolError', message: 'boom' });
  });

  it('on a graceful stop records what ran and hands every row back at its next slot', async () => {
    const schedule = new FakeSchedule(rows(2));
    const { dispatcher, recorder } = anEngine(schedule);
    await dispatcher.pump();
    await dispatcher.drain(1);
    expect(recorder.batches.flat()).to.have.length(2);
    expect(schedule.resigned.map((r) => r.slot.getTime() - start)).to.deep.equal([MIN - 250, MIN - 250]);
    expect([...schedule.rows.values()].every((r) => r.holder === null)).to.equal(true);
  });
});
