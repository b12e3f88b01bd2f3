import { AnnounceToSubscribers } from '../../application/status-pages/announce-to-subscribers';
import { defineJob } from './job-definition';

export const STATUS_PAGE_SUBSCRIBERS_JOB = 'status-pages:tell-subscribers';

/**
 * When an event is written to the outbox (notice `notification_work`), and every 5 minutes in case a
 * notice was lost: tells status page subscribers of new incidents, recoveries and announced
 * maintenance (the outbox events), through the delivery ledger. Exactly once per event and
 * subscriber comes from the outbox mark and the messages' dedup keys, not from Agenda's lock.
 */
export const statusPageSubscribersJob = defineJob({ announceToSubscribers: AnnounceToSubscribers }, (use, logger) => {
  return {
    name: STATUS_PAGE_SUBSCRIBERS_JOB,
    every: '5 minutes',
    wakeOn: ['notification_work'],
    async run() {
      const BATCH = 200;
      let written = 0;
      // Full batches mean more may wait; a bounded number per run keeps one run short.
      for (let round = 0; round < 50; round += 1) {
        const { events, messages } = await use.announceToSubscribers.execute(BATCH);
        written += messages;
        if (events < BATCH) break;
      }
      if (written > 0) logger.info({ job: STATUS_PAGE_SUBSCRIBERS_JOB, messages: written }, 'status page subscribers told');
    },
  };
});
