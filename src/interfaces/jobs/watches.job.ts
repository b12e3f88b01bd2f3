import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { RunWatches } from '../../application/watches/run-watches';
import type { JobDefinition } from './job-definition';

export const WATCHES_JOB = 'watches:customer-domains-and-ips';

/** Every 10 minutes: looks up the customer domains and IPs that are due (daily / every 6 hours). */
export function watchesJob(container: Container, logger: Logger): JobDefinition {
  return {
    name: WATCHES_JOB,
    every: '10 minutes',
    async run() {
      const { domains, ips } = await container.get(RunWatches).execute();
      if (domains + ips > 0) logger.info({ job: WATCHES_JOB, domains, ips }, 'watches checked');
    },
  };
}
