import { expect } from 'chai';
import { KnownSilenceDeadlines } from '../../../../src/application/incidents/known-silence-deadlines';
import type { OwnWorkerLiveness, SilenceDeadlines } from '../../../../src/application/incidents/ports';
import { ManualClock } from '../../../support/manual-clock';

/** The schedule's answer, counted: live locations with their liveness deadlines (ms). */
class CountingDeadlines implements SilenceDeadlines {
  reads = 0;
  constructor(public deadlines: Record<string, number>) {}
  async liveness(now: Date) {
    this.reads++;
    const live = Object.keys(this.deadlines)
      .filter((l) => this.deadlines[l]! >= now.getTime())
      .sort();
    const soonest = Math.min(...live.map((l) => this.deadlines[l]!));
    return { live, nextSilenceAt: live.length ? new Date(soonest) : null };
  }
}

function aWorld(deadlines: Record<string, number>, own: { locations: string[]; untilMs: number } | null) {
  const clock = new ManualClock();
  const read = new CountingDeadlines(deadlines);
  const mine = { own };
  const ownLiveness: OwnWorkerLiveness = {
    current: () => (mine.own ? { locations: mine.own.locations, aliveUntil: new Date(mine.own.untilMs) } : null),
  };
  return { clock, read, mine, known: new KnownSilenceDeadlines(read, ownLiveness) };
}

describe('KnownSilenceDeadlines (the silence deadlines from what the process knows of its own worker)', () => {
  it("reads once, then answers from its own worker's lease while every live location is its own", async () => {
    const start = new ManualClock().ms;
    const { clock, read, mine, known } = aWorld(
      { eu: start + 15_000, heartbeat: start + 15_000 },
      {
        locations: ['eu', 'heartbeat'],
        untilMs: start + 15_000,
      },
    );
    expect(await known.liveness(clock.now())).to.deep.equal({ live: ['eu', 'heartbeat'], nextSilenceAt: new Date(start + 15_000) });
    expect(read.reads).to.equal(1);
    clock.advance(5_000);
    mine.own!.untilMs = clock.ms + 15_000; // renewed
    expect(await known.liveness(clock.now())).to.deep.equal({ live: ['eu', 'heartbeat'], nextSilenceAt: new Date(clock.ms + 15_000) });
    expect(read.reads, 'answered without a statement').to.equal(1);
  });

  it('reads when its own lease has ended in memory (it stopped renewing) or it is not registered', async () => {
    const start = new ManualClock().ms;
    const { clock, read, mine, known } = aWorld({ eu: start + 15_000 }, { locations: ['eu'], untilMs: start + 15_000 });
    await known.liveness(clock.now());
    clock.advance(15_000);
    await known.liveness(clock.now());
    expect(read.reads, 'its lease ends now: asked').to.equal(2);
    mine.own = null;
    clock.advance(1_000);
    read.deadlines.eu = clock.ms + 5_000;
    expect(await known.liveness(clock.now())).to.deep.equal({ live: ['eu'], nextSilenceAt: new Date(clock.ms + 5_000) });
    expect(read.reads).to.equal(3);
  });

  it('reads every time while a live location is served by other processes only', async () => {
    const start = new ManualClock().ms;
    const { clock, read, known } = aWorld({ eu: start + 15_000, us: start + 9_000 }, { locations: ['eu'], untilMs: start + 15_000 });
    expect((await known.liveness(clock.now())).nextSilenceAt).to.deep.equal(new Date(start + 9_000));
    clock.advance(1_000);
    expect((await known.liveness(clock.now())).nextSilenceAt, "the probe's deadline, read").to.deep.equal(new Date(start + 9_000));
    expect(read.reads).to.equal(2);
  });

  it('reads when asked fresh (a run: a location may have come back in another process), and answers from that reading after', async () => {
    const start = new ManualClock().ms;
    const { clock, read, known } = aWorld({ eu: start + 15_000 }, { locations: ['eu'], untilMs: start + 15_000 });
    await known.liveness(clock.now());
    read.deadlines.us = start + 12_000;
    expect(await known.liveness(clock.now(), { fresh: true })).to.deep.equal({
      live: ['eu', 'us'],
      nextSilenceAt: new Date(start + 12_000),
    });
    await known.liveness(clock.now());
    expect(read.reads, 'us is not its own: read again, not answered from memory').to.equal(3);
  });
});
