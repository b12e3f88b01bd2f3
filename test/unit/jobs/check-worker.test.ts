import { expect } from 'chai';
import sinon from 'sinon';
import pino from 'pino';
import { RECORD_CHUNK, type CheckDispatcher } from '../../../src/application/scheduling/check-dispatcher';
import { LatenessHistogram } from '../../../src/domain/scheduling/lateness-histogram';
import { startCheckWorker } from '../../../src/interfaces/jobs/check-worker';
import { SteadyMemo } from '../../../src/application/incidents/steady-memo';
import { FakeAlertStateChanges } from '../../support/fakes/incidents-fakes';
import { FakeScheduleWakeups } from '../../support/fakes/scheduling-fakes';

/** A dispatcher stand-in (the worker's collaborator, not a port) that counts what the worker asks of it. */
class FakeDispatcher {
  pumps = 0;
  /** Whether each round was quiet (no notice woke it, and notices come). */
  readonly quietRounds: boolean[] = [];
  flushes = 0;
  starts = 0;
  drained = false;
  unrecorded = 0;
  /** What a flush leaves unrecorded (checks finishing meanwhile). */
  refill = 0;
  running = 0;
  /** In how many ms the next held row is due (null: none within the span asked); 0 by default, so the tick runs at its shortest. */
  nextDueInMs: number | null = 0;
  /** The spans the worker asked about. */
  readonly asked: number[] = [];
  /** What the worker gave onCheckEnded: the tests call it as a check's end would. */
  checkEnded: () => void = () => undefined;
  readonly stats = { started: 0, recorded: 0, dropped: 0, held: 0, lateness: new LatenessHistogram() };

  async pump(round: { quiet?: boolean } = {}) {
    this.pumps++;
    this.quietRounds.push(round.quiet === true);
    return 0;
  }
  async flush() {
    this.flushes++;
    this.unrecorded = this.refill;
    return 0;
  }
  startDue() {
    this.starts++;
    return 0;
  }
  msUntilNextDue(withinMs: number) {
    this.asked.push(withinMs);
    return this.nextDueInMs;
  }
  onCheckEnded(listener: () => void) {
    this.checkEnded = listener;
  }
  async drain() {
    this.drained = true;
  }
}

const quiet = pino({ level: 'silent' });

describe('check worker loops', () => {
  // The loops run on timers: fake ones make every count exact and the tests instant.
  let timers: sinon.SinonFakeTimers;
  const wait = (ms: number) => timers.tickAsync(ms);
  beforeEach(() => {
    timers = sinon.useFakeTimers();
  });
  afterEach(() => timers.restore());
  /** A worker holding one row, due in `nextDueInMs`, that claims only at its start and ticks at most every 250 ms. */
  const holdingOneRow = async (setup: { nextDueInMs: number; flushEveryMs: number }) => {
    const dispatcher = new FakeDispatcher();
    dispatcher.stats.held = 1;
    dispatcher.nextDueInMs = setup.nextDueInMs;
    const worker = startCheckWorker(dispatcher as unknown as CheckDispatcher, quiet, {
      pumpEveryMs: 100_000,
      flushEveryMs: setup.flushEveryMs,
      startEveryMs: 250,
    });
    await wait(0);
    return { dispatcher, worker };
  };

  it('claims on its cadence, starts due checks on a short tick, records at least every flush period, and drains on stop', async () => {
    const dispatcher = new FakeDispatcher();
    dispatcher.stats.held = 1;
    dispatcher.unrecorded = dispatcher.refill = 1;
    const worker = startCheckWorker(dispatcher as unknown as CheckDispatcher, quiet, {
      pumpEveryMs: 100,
      flushEveryMs: 200,
      startEveryMs: 20,
    });
    await wait(450);
    expect(dispatcher.pumps, 'at 0, 100, 200, 300 and 400 ms').to.equal(5);
    expect(dispatcher.flushes, 'at 0, 200 and 400 ms').to.equal(3);
    expect(dispatcher.starts, 'once the first round held rows, then every 20 ms').to.equal(23);
    expect(dispatcher.drained).to.equal(false);
    await worker.stop();
    expect(dispatcher.drained).to.equal(true);
    await wait(1_000);
    expect([dispatcher.pumps, dispatcher.flushes, dispatcher.starts], 'nothing runs once stopped').to.deep.equal([5, 3, 23]);
  });

  it('records early once a chunk waits', async () => {
    const dispatcher = new FakeDispatcher();
    dispatcher.stats.held = 1;
    const worker = startCheckWorker(dispatcher as unknown as CheckDispatcher, quiet, {
      pumpEveryMs: 10_000,
      flushEveryMs: 10_000,
      startEveryMs: 20,
    });
    await wait(20);
    const flushesAtStart = dispatcher.flushes;
    dispatcher.unrecorded = RECORD_CHUNK - 1;
    await wait(150);
    expect(dispatcher.flushes, 'less than a chunk waits for the period').to.equal(flushesAtStart);
    dispatcher.unrecorded = RECORD_CHUNK;
    await wait(20);
    expect(dispatcher.flushes, 'a full chunk is recorded at the next start tick, without waiting for the period').to.equal(
      flushesAtStart + 1,
    );
    await worker.stop();
  });

  it('sets no start tick and no recording timer while it holds nothing: a round that claims rows starts them, results arm the recording', async () => {
    const dispatcher = new FakeDispatcher();
    const worker = startCheckWorker(dispatcher as unknown as CheckDispatcher, quiet, {
      pumpEveryMs: 1_000,
      flushEveryMs: 200,
      startEveryMs: 20,
    });
    await wait(2_500);
    expect(dispatcher.pumps, 'claim rounds at 0, 1 and 2 s').to.equal(3);
    expect([dispatcher.starts, dispatcher.flushes], 'no start tick; the first recording round only').to.deep.equal([0, 1]);
    dispatcher.stats.held = 2;
    await wait(500);
    expect(dispatcher.starts, 'the round at 3 s held rows: ticks from then on').to.equal(0);
    await wait(100);
    expect(dispatcher.starts, 'ticks from 3 s').to.equal(5);
    expect(dispatcher.flushes, 'nothing to record: no recording round').to.equal(1);
    dispatcher.unrecorded = 3;
    await wait(20);
    await wait(200);
    expect(dispatcher.flushes, 'a tick saw results waiting: recorded within the flush period').to.equal(2);
    await wait(1_000);
    expect(dispatcher.flushes, 'all recorded: no more recording rounds').to.equal(2);
    dispatcher.stats.held = 0;
    await wait(20);
    const starts = dispatcher.starts;
    await wait(2_000);
    expect(dispatcher.starts, 'nothing held, running or unrecorded: the tick stopped').to.equal(starts);
    await worker.stop();
  });

  it('wakes its start tick when the next held row is due, not every tick: at most every startEveryMs, at least every 30 s', async () => {
    const { dispatcher, worker } = await holdingOneRow({ nextDueInMs: 3_000, flushEveryMs: 10_000 });
    await wait(2_999);
    expect(dispatcher.starts, 'no tick before the row is due').to.equal(0);
    dispatcher.nextDueInMs = 0;
    await wait(1);
    expect(dispatcher.starts, 'one tick when it is due').to.equal(1);
    dispatcher.nextDueInMs = null;
    await wait(249);
    expect(dispatcher.starts, 'a row due at once waits for the shortest span after the last tick').to.equal(1);
    await wait(1);
    expect(dispatcher.starts).to.equal(2);
    await wait(29_999);
    expect(dispatcher.starts, 'nothing due within 30 s: it sleeps 30 s').to.equal(2);
    await wait(1);
    expect(dispatcher.starts).to.equal(3);
    expect(new Set(dispatcher.asked), 'it asks as far as it would sleep').to.deep.equal(new Set([30_000]));
    await worker.stop();
  });

  it("a check's end plans the tick sooner when its row is due sooner, and arms the recording without waiting for a tick", async () => {
    const { dispatcher, worker } = await holdingOneRow({ nextDueInMs: 10_000, flushEveryMs: 2_000 });
    const flushes = dispatcher.flushes;
    await wait(1_000);
    dispatcher.unrecorded = 1;
    dispatcher.nextDueInMs = 500;
    dispatcher.checkEnded();
    await wait(499);
    expect(dispatcher.starts, 'not yet').to.equal(0);
    dispatcher.nextDueInMs = 10_000;
    await wait(1);
    expect(dispatcher.starts, 'the tick came forward to 1.5 s').to.equal(1);
    await wait(499);
    expect(dispatcher.flushes, "the recording armed by the end: a period after the last round's start, not before").to.equal(flushes);
    await wait(1);
    expect(dispatcher.flushes).to.equal(flushes + 1);
    dispatcher.unrecorded = RECORD_CHUNK;
    dispatcher.checkEnded();
    await wait(0);
    expect(dispatcher.flushes, 'a full chunk is recorded at once').to.equal(flushes + 2);
    expect(dispatcher.starts, 'with no tick between').to.equal(1);
    dispatcher.nextDueInMs = 20_000;
    dispatcher.checkEnded();
    await wait(9_499);
    expect(dispatcher.starts, 'a later row does not put off the tick planned at 11.5 s').to.equal(1);
    await wait(1);
    expect(dispatcher.starts).to.equal(2);
    await worker.stop();
  });

  it('with wake-ups, claims every 5 s and at once when woken, a burst of notices making one round', async () => {
    const dispatcher = new FakeDispatcher();
    const wakeups = new FakeScheduleWakeups();
    const worker = startCheckWorker(dispatcher as unknown as CheckDispatcher, quiet, { wakeups, flushEveryMs: 10_000, startEveryMs: 20 });
    await wait(700);
    expect(dispatcher.pumps, 'the first round, and one as listening began (notices before it were not heard): no 500-ms polling').to.equal(
      2,
    );
    wakeups.wake();
    await wait(0);
    expect(dispatcher.pumps, 'woken at once').to.equal(3);
    for (let i = 0; i < 5; i++) wakeups.wake();
    await wait(99);
    expect(dispatcher.pumps, 'rounds at most every 100 ms').to.equal(3);
    await wait(1);
    expect(dispatcher.pumps, 'a burst of notices makes one more round').to.equal(4);
    await wait(4_999);
    expect(dispatcher.pumps, 'then every 5 s').to.equal(4);
    await wait(1);
    expect(dispatcher.pumps).to.equal(5);
    expect(dispatcher.quietRounds, 'only a round on the timer, once notices come, is quiet').to.deep.equal([
      false,
      false,
      false,
      false,
      true,
    ]);
    await worker.stop();
    expect(wakeups.stopped).to.equal(true);
  });

  it('polls every 500 ms when wake-ups cannot be had', async () => {
    const dispatcher = new FakeDispatcher();
    const errors: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void errors.push(JSON.parse(line).msg) });
    const worker = startCheckWorker(dispatcher as unknown as CheckDispatcher, logger, {
      wakeups: new FakeScheduleWakeups(false),
      flushEveryMs: 10_000,
      startEveryMs: 20,
    });
    await wait(1_150);
    await worker.stop();
    expect(dispatcher.pumps, 'at 0, 500 and 1000 ms').to.equal(3);
    expect(dispatcher.quietRounds, 'without notices no round is quiet').to.deep.equal([false, false, false]);
    expect(errors).to.include('schedule wake-ups unavailable; the check worker polls every 500 ms');
  });

  it('remembers steady monitors only while it runs, following alert-state changes', async () => {
    const memo = new SteadyMemo();
    const remember = () => {
      const watch = memo.watch();
      watch.remember(7, 'eu');
      watch.close();
    };
    const worker = startCheckWorker(new FakeDispatcher() as unknown as CheckDispatcher, quiet, {
      steadyResults: { memo, changes: new FakeAlertStateChanges() },
      flushEveryMs: 10_000,
      startEveryMs: 20,
    });
    await wait(20);
    remember();
    expect(memo.knows(7, 'eu'), 'while running').to.equal(true);
    await worker.stop();
    expect(memo.knows(7, 'eu'), 'after stopping').to.equal(false);
    remember();
    expect(memo.knows(7, 'eu'), 'no longer following').to.equal(false);
  });

  it("reads every batch's states when alert-state changes cannot be had", async () => {
    const errors: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void errors.push(JSON.parse(line).msg) });
    const memo = new SteadyMemo();
    const changes = {
      listen: async () => {
        throw new Error('no channel');
      },
    };
    const worker = startCheckWorker(new FakeDispatcher() as unknown as CheckDispatcher, logger, {
      steadyResults: { memo, changes },
      flushEveryMs: 10_000,
      startEveryMs: 20,
    });
    await wait(20);
    const watch = memo.watch();
    watch.remember(7, 'eu');
    watch.close();
    expect(memo.knows(7, 'eu')).to.equal(false);
    await worker.stop();
    expect(errors).to.include('alert-state changes unavailable; every batch of results reads the alert states');
  });
});
