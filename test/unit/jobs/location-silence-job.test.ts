import { expect } from 'chai';
import pino from 'pino';
import { KnownSilenceDeadlines } from '../../../src/application/incidents/known-silence-deadlines';
import type { SilenceDeadlines } from '../../../src/application/incidents/ports';
import { locationSilenceJob } from '../../../src/interfaces/jobs/location-silence.job';
import { ManualClock } from '../../support/manual-clock';

/**
 * The location-silence job over the deadlines as the service binds them (KnownSilenceDeadlines): a
 * run reads the schedule whatever the process knows (a location may have come back elsewhere), and
 * the due time after it comes from the process's own worker while it serves every live location.
 */
describe('location-silence job (its reads of the liveness deadlines)', () => {
  it('reads at each run, and between runs answers its due time from its own worker without a statement', async () => {
    const clock = new ManualClock();
    const reads: Date[] = [];
    const schedule: SilenceDeadlines = {
      liveness: async (now) => {
        reads.push(now);
        return { live: ['eu', 'heartbeat'], nextSilenceAt: new Date(clock.ms + 15_000) };
      },
    };
    let ownUntil = clock.ms + 15_000;
    const deadlines = new KnownSilenceDeadlines(schedule, {
      current: () => ({ locations: ['eu', 'heartbeat'], aliveUntil: new Date(ownUntil) }),
    });
    let runs = 0;
    const job = locationSilenceJob.build(
      {
        noticeLocationSilence: {
          execute: async () => {
            runs++;
            return { changed: 0 };
          },
        },
        deadlines,
        clock,
      } as unknown as Parameters<typeof locationSilenceJob.build>[0],
      pino({ level: 'silent' }),
    );
    expect(await job.nextDueAt!(), 'no run yet in this process: due now').to.deep.equal(clock.now());
    await job.run();
    expect([runs, reads.length]).to.deep.equal([1, 2]);
    for (let i = 0; i < 5; i++) {
      clock.advance(5_000);
      ownUntil = clock.ms + 15_000; // its worker renewed
      expect(await job.nextDueAt!()).to.deep.equal(new Date(ownUntil));
    }
    expect(reads, 'five due times, no statement').to.have.length(2);
    await job.run();
    expect(reads, 'a run reads').to.have.length(3);
  });
});
