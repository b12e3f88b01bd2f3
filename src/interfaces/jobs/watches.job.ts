import { RunWatches } from '../../application/watches/run-watches';
import { defineJob } from './job-definition';

export const WATCHES_JOB = 'watches:customer-domains-and-ips';

/** Every 10 minutes: looks up the customer domains and IPs that are due (daily / every 6 hours). */
export const watchesJob = defineJob({ runWatches: RunWatches }, (use, logger) => {
  return {
    name: WATCHES_JOB,
    every: '10 minutes',
    async run() {
      const { domains, ips } = await use.runWatches.execute();
      if (domains + ips > 0) logger.info({ job: WATCHES_JOB, domains, ips }, 'watches checked');
    },
  };
});
