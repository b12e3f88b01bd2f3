import { PurgeExpiredCustomDomains } from '../../application/custom-domains/purge-expired-custom-domains';
import { defineJob } from './job-definition';

export const CUSTOM_DOMAINS_PURGE_JOB = 'custom-domains:purge-expired';

/** Hourly: deletes pending custom-domain entries 7 days old. */
export const customDomainsPurgeJob = defineJob({ purgeExpiredCustomDomains: PurgeExpiredCustomDomains }, (use, logger) => {
  return {
    name: CUSTOM_DOMAINS_PURGE_JOB,
    every: '1 hour',
    async run() {
      const purged = await use.purgeExpiredCustomDomains.execute();
      if (purged > 0) logger.info({ job: CUSTOM_DOMAINS_PURGE_JOB, purged }, 'expired pending custom domains purged');
    },
  };
});
