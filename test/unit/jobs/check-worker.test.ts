import { expect } from 'chai';
import pino from 'pino';
import { RECORD_CHUNK, type CheckDispatcher } from '../../../src/application/scheduling/check-dispatcher';
import { LatenessHistogram } from '../../../src/domain/scheduling/lateness-histogram';
import { startCheckWorker } from '../../../src/interfaces/jobs/check-worker';

/** A dispatcher stand-in that counts what the worker asks of it. */
class FakeDispatcher {
  pumps = 0;
  flushes = 0;
  starts = 0;
  drained = false;
  unrecorded = 0;
  running = 0;
  readonly stats = { started: 0, recorded: 0, dropped: 0, held: 0, lateness: new LatenessHistogram() };

  async pump() { this.pumps++; return 0; }
  async flush() { this.flushes++; this.unrecorded = 0; return 0; }
  startDue() { this.starts++; return 0; }
  async drain() { this.drained = true; }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = pino({ level: 'silent' });

describe('check worker loops', () => {
  it('claims on its cadence, starts due checks on a short tick, records at least every flush period, and drains on stop', async () => {
    const dispatcher = new FakeDispatcher();
    const worker = startCheckWorker(dispatcher as unknown as CheckDispatcher, quiet, { pumpEveryMs: 100, flushEveryMs: 200, startEveryMs: 20 });
    await wait(450);
    await worker.stop();
    expect(dispatcher.pumps).to.be.within(3, 6);
    expect(dispatcher.flushes).to.be.within(2, 4);
    expect(dispatcher.starts).to.be.at.least(8);
    expect(dispatcher.drained).to.equal(true);
  });

  it('records early once a chunk waits', async () => {
    const dispatcher = new FakeDispatcher();
    const worker = startCheckWorker(dispatcher as unknown as CheckDispatcher, quiet, { pumpEveryMs: 10_000, flushEveryMs: 10_000, startEveryMs: 20 });
    await wait(20);
    const flushesAtStart = dispatcher.flushes;
    dispatcher.unrecorded = RECORD_CHUNK - 1;
    await wait(150);
    expect(dispatcher.flushes, 'less than a chunk waits for the period').to.equal(flushesAtStart);
    dispatcher.unrecorded = RECORD_CHUNK;
    await wait(150);
    expect(dispatcher.flushes, 'a full chunk is recorded without waiting for the period').to.equal(flushesAtStart + 1);
    await worker.stop();
  });
});
