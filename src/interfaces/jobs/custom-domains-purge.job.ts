import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { PurgeExpiredCustomDomains } from '../../application/custom-domains/purge-expired-custom-domains';
import type { JobDefinition } from './job-definition';

export const CUSTOM_DOMAINS_PURGE_JOB = 'custom-domains:purge-expired';

/** Hourly: deletes pending custom-domain entries 7 days old. */
export function customDomainsPurgeJob(container: Container, logger: Logger): JobDefinition {
  return {
    name: CUSTOM_DOMAINS_PURGE_JOB,
    every: '1 hour',
    async run() {
      const purged = await container.get(PurgeExpiredCustomDomains).execute();
      if (purged > 0) logger.info({ job: CUSTOM_DOMAINS_PURGE_JOB, purged }, 'expired pending custom domains purged');
    },
  };
}
