import { AccountDeletion } from '../../application/identity/account-deletion';
import { defineJob } from './job-definition';

export const ACCOUNT_DELETIONS_JOB = 'identity:complete-due-account-deletions';

/** Hourly: carries out account deletions whose 30 days have passed. */
export const accountDeletionsJob = defineJob({ accountDeletion: AccountDeletion }, (use, logger) => {
  return {
    name: ACCOUNT_DELETIONS_JOB,
    every: '1 hour',
    async run() {
      let completed = 0;
      for (let batch = -1; batch !== 0; completed += batch) batch = await use.accountDeletion.completeDue(100);
      if (completed > 0) logger.info({ job: ACCOUNT_DELETIONS_JOB, completed }, 'account deletions carried out');
    },
  };
});
