import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { RunDueReports } from '../../application/reports/run-due-reports';
import type { JobDefinition } from './job-definition';

export const REPORTS_JOB = 'reports:run-due';

/**
 * Every minute: makes the report runs whose slot came (definitions' schedules, and customers' own
 * monthly reports). Exactly once per slot comes from the run's unique key claimed in the run's
 * transaction, not from Agenda's lock, so several workers may run this job at once.
 */
export function reportsJob(container: Container, logger: Logger): JobDefinition {
  return {
    name: REPORTS_JOB,
    every: '1 minute',
    async run() {
      const report = await container.get(RunDueReports).execute();
      if (report.made > 0) logger.info({ job: REPORTS_JOB, ...report }, 'report runs made');
    },
  };
}
