import { expect } from 'chai';
import sinon from 'sinon';
import pino from 'pino';
import { wakeJobsOnNotices } from '../../../src/infrastructure/scheduling/job-wakeups';

const silent = pino({ level: 'silent' });
/** No channel is listened to by these jobs: the database URL is never used. */
const NO_DATABASE = 'postgres://unused.invalid/none';

/**
 * Jobs that sleep until their rows' next due time (no notices here: a job without `wakeOn` opens no
 * connection), on a fake clock: every run below is explained by a due time, none by a poll.
 */
describe('job wake-ups: due times', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => {
    clock = sinon.useFakeTimers({ now: 1_000_000, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => clock.restore());

  const timings = () => ({ now: () => Date.now(), minGapMs: 1_000, maxSleepMs: 3_600_000, retryMs: 60_000 });

  it('runs once at start, then at each due time its rows give, and never in between', async () => {
    const start = Date.now();
    // The rows: what is due after each run (a run handles what was due; the next one then shows).
    const dues = [start + 5_000, start + 65_000, null];
    const runs: number[] = [];
    let reads = 0;
    const stop = await wakeJobsOnNotices(
      NO_DATABASE,
      [
        {
          name: 'due',
          nextDueAt: async () => {
            reads += 1;
            const due = dues[Math.min(runs.length - 1, dues.length - 1)]!;
            return due === null ? null : new Date(due);
          },
          run: async () => void runs.push(Date.now() - start),
        },
      ],
      silent,
      timings(),
    );
    await clock.tickAsync(4_999);
    expect(runs, 'the run at start only').to.deep.equal([0]);
    await clock.tickAsync(1);
    expect(runs).to.deep.equal([0, 5_000]);
    await clock.tickAsync(59_999);
    expect(runs).to.deep.equal([0, 5_000]);
    await clock.tickAsync(1);
    expect(runs).to.deep.equal([0, 5_000, 65_000]);
    // Nothing due any more: it sleeps (an hour, then reads again) rather than polling.
    const readsAfter = reads;
    await clock.tickAsync(3_599_000);
    expect(runs).to.have.length(3);
    expect(reads, 'no read before the hour is up').to.equal(readsAfter);
    await clock.tickAsync(1_000);
    expect(reads, 'read again after the hour').to.equal(readsAfter + 1);
    await stop();
  });

  it('sleeps again without a run when the due time moved on meanwhile (a renewed lease), and runs once it is reached', async () => {
    const start = Date.now();
    let deadline = start + 10_000;
    const runs: number[] = [];
    let reads = 0;
    const stop = await wakeJobsOnNotices(
      NO_DATABASE,
      [
        {
          name: 'deadline',
          nextDueAt: async () => {
            reads += 1;
            return new Date(deadline);
          },
          run: async () => void runs.push(Date.now() - start),
        },
      ],
      silent,
      timings(),
    );
    // Renewed every 5 s to 10 s ahead: it wakes at each deadline it read (5 s ahead by then), finds it moved, sleeps on.
    for (let second = 5; second <= 60; second += 5) {
      await clock.tickAsync(5_000);
      deadline = Date.now() + 10_000;
    }
    expect(runs, 'only the run at start').to.deep.equal([0]);
    expect(reads, 'one read per deadline reached, no run').to.be.within(12, 13);
    // The renewals stop: it runs at the last deadline.
    await clock.tickAsync(10_000);
    expect(runs).to.deep.equal([0, 70_000]);
    await stop();
  });

  it('reads a due time again a minute after the read failed', async () => {
    const start = Date.now();
    let failing = true;
    const runs: number[] = [];
    const stop = await wakeJobsOnNotices(
      NO_DATABASE,
      [
        {
          name: 'flaky',
          nextDueAt: async () => {
            if (failing) throw new Error('database away');
            return new Date(Date.now());
          },
          run: async () => void runs.push(Date.now() - start),
        },
      ],
      silent,
      timings(),
    );
    await clock.tickAsync(30_000);
    failing = false;
    expect(runs).to.deep.equal([0]);
    await clock.tickAsync(30_000);
    expect(runs).to.deep.equal([0, 60_000]);
    await stop();
  });

  it('runs a due time still past after a run again only after stillDueMs: rows it cannot take do not spin it', async () => {
    const start = Date.now();
    const runs: number[] = [];
    const stop = await wakeJobsOnNotices(
      NO_DATABASE,
      [{ name: 'stuck', nextDueAt: async () => new Date(start), run: async () => void runs.push(Date.now() - start) }],
      silent,
      { ...timings(), stillDueMs: 15_000 },
    );
    await clock.tickAsync(60_000);
    expect(runs).to.deep.equal([0, 15_000, 30_000, 45_000, 60_000]);
    await stop();
  });

  it('stops: no run after stop, even with a due time armed', async () => {
    const runs: number[] = [];
    const stop = await wakeJobsOnNotices(
      NO_DATABASE,
      [{ name: 'stopped', nextDueAt: async () => new Date(Date.now() + 1_000), run: async () => void runs.push(Date.now()) }],
      silent,
      timings(),
    );
    await clock.tickAsync(0);
    await stop();
    await clock.tickAsync(10_000);
    expect(runs).to.have.length(1);
  });
});
