import { NoticeLocationSilence } from '../../application/incidents/notice-location-silence';
import { SILENCE_DEADLINES } from '../../application/incidents/ports';
import { CLOCK } from '../../application/shared/clock';
import { defineJob } from './job-definition';

export const LOCATION_SILENCE_JOB = 'incidents:location-silence';

/**
 * Monitors whose locations fell silent (no live check process serves them) or came back move to
 * unknown and back, once per transition, with an organization event (audit log). Silence comes by
 * time: the job sleeps until a live location's liveness deadline; its check processes renew it,
 * so the deadline read again then has usually moved on and nothing runs, while a location live at
 * the last run and no longer live runs it. A check process registering (a location back) or a
 * monitor created, moved or paused (notice `job_rows` / `locations`) runs it at once; every
 * 5 minutes as the safety poll.
 */
export const locationSilenceJob = defineJob(
  { noticeLocationSilence: NoticeLocationSilence, deadlines: SILENCE_DEADLINES, clock: CLOCK },
  (use, logger) => {
    /** The locations live when the last run began (null: no run yet in this process). */
    let liveAtRun: readonly string[] | null = null;
    return {
      name: LOCATION_SILENCE_JOB,
      every: '5 minutes',
      wakeOn: ['job_rows:locations'],
      async nextDueAt() {
        const now = use.clock.now();
        const { live, nextSilenceAt } = await use.deadlines.liveness(now);
        if (liveAtRun === null || liveAtRun.some((code) => !live.includes(code))) return now;
        return nextSilenceAt;
      },
      async run() {
        liveAtRun = (await use.deadlines.liveness(use.clock.now(), { fresh: true })).live;
        const report = await use.noticeLocationSilence.execute();
        if (report.changed > 0) logger.info({ job: LOCATION_SILENCE_JOB, ...report }, 'monitor liveness changed');
      },
    };
  },
);
