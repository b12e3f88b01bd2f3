import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { PurgeStaleAgentRecords } from '../../application/agent-access/purge-stale-agent-records';
import type { JobDefinition } from './job-definition';

export const AGENT_ACCESS_PURGE_JOB = 'agent-access:purge-stale-records';

/** Hourly: drops long-expired agent tokens and abandoned or long-revoked registrations. */
export function agentAccessPurgeJob(container: Container, logger: Logger): JobDefinition {
  return {
    name: AGENT_ACCESS_PURGE_JOB,
    every: '1 hour',
    async run() {
      const purged = await container.get(PurgeStaleAgentRecords).execute();
      if (purged.tokens + purged.registrations > 0) logger.info({ job: AGENT_ACCESS_PURGE_JOB, ...purged }, 'stale agent records purged');
    },
  };
}
