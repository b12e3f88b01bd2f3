import { PurgeAuditLog } from '../../application/audit/purge-audit-log';
import { defineJob } from './job-definition';

export const AUDIT_LOG_PURGE_JOB = 'audit-log:purge';

/** Hourly: deletes audit log entries older than AUDIT_LOG_RETENTION_DAYS. */
export const auditLogPurgeJob = defineJob({ purgeAuditLog: PurgeAuditLog }, (use, logger) => {
  return {
    name: AUDIT_LOG_PURGE_JOB,
    every: '1 hour',
    async run() {
      const purged = await use.purgeAuditLog.execute();
      if (purged > 0) logger.info({ job: AUDIT_LOG_PURGE_JOB, purged }, 'audit log entries past retention purged');
    },
  };
});
