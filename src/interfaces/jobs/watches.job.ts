import { DOMAIN_RECHECK_MS, IP_RECHECK_MS, RunWatches } from '../../application/watches/run-watches';
import { WATCH_DUE_TIMES } from '../../application/watches/ports';
import { defineJob } from './job-definition';

export const WATCHES_JOB = 'watches:customer-domains-and-ips';

/**
 * Looks up the customer domains and IPs that are due (daily / every 6 hours): at the next one's due
 * time (its last check plus its period), when a domain or IP is added or changed (notice
 * `job_rows` / `watches`), and every hour as the safety poll.
 */
export const watchesJob = defineJob({ runWatches: RunWatches, dueTimes: WATCH_DUE_TIMES }, (use, logger) => {
  return {
    name: WATCHES_JOB,
    every: '1 hour',
    wakeOn: ['job_rows:watches'],
    nextDueAt: () => use.dueTimes.nextDueAt(DOMAIN_RECHECK_MS, IP_RECHECK_MS),
    async run() {
      const { domains, ips } = await use.runWatches.execute();
      if (domains + ips > 0) logger.info({ job: WATCHES_JOB, domains, ips }, 'watches checked');
    },
  };
});
