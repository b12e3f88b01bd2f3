import { PurgeStaleAgentRecords } from '../../application/agent-access/purge-stale-agent-records';
import { defineJob } from './job-definition';

export const AGENT_ACCESS_PURGE_JOB = 'agent-access:purge-stale-records';

/** Hourly: drops long-expired agent tokens and abandoned or long-revoked registrations. */
export const agentAccessPurgeJob = defineJob({ purgeStaleAgentRecords: PurgeStaleAgentRecords }, (use, logger) => {
  return {
    name: AGENT_ACCESS_PURGE_JOB,
    every: '1 hour',
    async run() {
      const purged = await use.purgeStaleAgentRecords.execute();
      if (purged.tokens + purged.registrations > 0) logger.info({ job: AGENT_ACCESS_PURGE_JOB, ...purged }, 'stale agent records purged');
    },
  };
});
