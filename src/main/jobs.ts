import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { RequestContext } from '@mikro-orm/postgresql';
import { accountDeletionsJob } from '../interfaces/jobs/account-deletions.job';
import { watchesJob } from '../interfaces/jobs/watches.job';
import { agentAccessPurgeJob } from '../interfaces/jobs/agent-access-purge.job';
import { resultStorageJob } from '../interfaces/jobs/result-storage.job';
import { maintenanceAnnouncementsJob } from '../interfaces/jobs/maintenance-announcements.job';
import { escalationsJob } from '../interfaces/jobs/escalations.job';
import { dataExportJob } from '../interfaces/jobs/data-export.job';
import { customDomainsPurgeJob } from '../interfaces/jobs/custom-domains-purge.job';
import { JobTrigger } from '../infrastructure/scheduling/job-trigger';
import { auditContext } from '../infrastructure/audit/audit-context';
import { statusPageSubscribersJob } from '../interfaces/jobs/status-page-subscribers.job';
import { reportsJob } from '../interfaces/jobs/reports.job';
import { auditLogPurgeJob } from '../interfaces/jobs/audit-log-purge.job';
import type { JobDefinition } from '../interfaces/jobs/job-definition';
import { startAgendaJobRunner, type JobRunner } from '../infrastructure/scheduling/agenda-job-runner';
import type { Database } from '../infrastructure/persistence/database';
import type { AppConfig } from './config';
import { meteredJobs, watchJobPool } from './metrics';

/** Every job of every context. */
export const jobDefinitions = (container: Container, logger: Logger): JobDefinition[] => [
  accountDeletionsJob(container, logger),
  watchesJob(container, logger),
  agentAccessPurgeJob(container, logger),
  resultStorageJob(container, logger),
  maintenanceAnnouncementsJob(container, logger),
  escalationsJob(container, logger),
  dataExportJob(container, logger),
  customDomainsPurgeJob(container, logger),
  statusPageSubscribersJob(container, logger),
  reportsJob(container, logger),
  auditLogPurgeJob(container, logger),
];

/** Starts Agenda with every job, each run in its own ORM context. */
export async function startJobs(
  config: AppConfig,
  databaseUrl: string,
  database: Database,
  container: Container,
  logger: Logger,
  options: { processEvery?: string | number } = {},
): Promise<JobRunner> {
  const runner = await startAgendaJobRunner({
    databaseUrl,
    mongodbUrl: config.mongodbUrl,
    logger,
    jobs: meteredJobs(container, jobDefinitions(container, logger)),
    // A job run is the service's own work, even one a request started (runNow): no caller is audited.
    around: (work) => RequestContext.create(database.orm.em, () => auditContext.run({ actor: null, ip: null, requestId: null }, work)),
    processEvery: options.processEvery,
  });
  watchJobPool(container, runner);
  const trigger = container.get(JobTrigger);
  trigger.attach(runner);
  return {
    ...runner,
    stop: async () => {
      trigger.detach();
      await runner.stop();
    },
  };
}
