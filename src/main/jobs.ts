import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { JobTrigger } from '../infrastructure/scheduling/job-trigger';
import { auditContext } from '../infrastructure/audit/audit-context';
import type { JobDefinition, JobFactory } from '../interfaces/jobs/job-definition';
import { provide } from './provide';
import { CONTEXTS } from './contexts';
import { startAgendaJobRunner, type JobRunner } from '../infrastructure/scheduling/agenda-job-runner';
import { wakeJobsOnNotices } from '../infrastructure/scheduling/job-wakeups';
import type { Database } from '../infrastructure/persistence/database';
import type { AppConfig } from './config';
import { CLOCK, type Clock } from '../application/shared/clock';
import { meteredJobs, watchJobPool } from './metrics';

/** Every job, context by context (src/main/contexts.ts). */
export const JOBS: readonly JobFactory[] = CONTEXTS.flatMap((context) => context.jobs ?? []);

/** Every job of the contexts (the service's by default), built from what it needs. */
export const jobDefinitions = (container: Container, logger: Logger, jobs: readonly JobFactory[] = JOBS): JobDefinition[] =>
  jobs.map((job) => job.build(provide(container, job.needs), logger));

/** Starts Agenda with every job, each run in its own ORM context. */
export async function startJobs(
  config: AppConfig,
  databaseUrl: string,
  database: Database,
  container: Container,
  logger: Logger,
  options: { processEvery?: string | number; jobs?: readonly JobFactory[] } = {},
): Promise<JobRunner> {
  const jobs = meteredJobs(container, jobDefinitions(container, logger, options.jobs));
  const clock = container.get<Clock>(CLOCK);
  // A job run is the service's own work, even one a request started (runNow): no caller is audited.
  const around = <T>(work: () => Promise<T>) => auditContext.run({ actor: null, ip: null, requestId: null }, work);
  const runner = await startAgendaJobRunner({
    databaseUrl,
    mongodbUrl: config.mongodbUrl,
    logger,
    jobs,
    around,
    processEvery: options.processEvery,
  });
  // Jobs whose work arrives as rows run on their notices and due times too (PostgreSQL's, even when Agenda keeps its jobs in MongoDB).
  const unwake = await wakeJobsOnNotices(
    databaseUrl,
    jobs.map(({ nextDueAt, ...job }) => ({
      ...job,
      run: () => around(() => job.run()),
      nextDueAt: nextDueAt && (() => around(() => nextDueAt())),
    })),
    logger,
    { now: () => clock.now().getTime() },
  );
  watchJobPool(container, runner);
  const trigger = container.get(JobTrigger);
  trigger.attach(runner);
  return {
    ...runner,
    stop: async () => {
      trigger.detach();
      await unwake();
      await runner.stop();
    },
  };
}
