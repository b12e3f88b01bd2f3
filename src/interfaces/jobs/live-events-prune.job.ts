import { PruneLiveEvents } from '../../application/live-events/prune-live-events';
import { defineJob } from './job-definition';

export const LIVE_EVENTS_PRUNE_JOB = 'live-events:prune';

/** Hourly: live events older than a day are forgotten (GET /api/events resumes within a day). */
export const liveEventsPruneJob = defineJob({ pruneLiveEvents: PruneLiveEvents }, (use, logger) => ({
  name: LIVE_EVENTS_PRUNE_JOB,
  every: '1 hour',
  async run() {
    const removed = await use.pruneLiveEvents.execute();
    logger.info({ job: LIVE_EVENTS_PRUNE_JOB, removed }, 'live events pruned');
  },
}));
