import { RunDueReports } from '../../application/reports/run-due-reports';
import { CLOCK } from '../../application/shared/clock';
import { defineJob } from './job-definition';

export const REPORTS_JOB = 'reports:run-due';

/**
 * Makes the report runs whose slot came (definitions' schedules, and customers' own monthly
 * reports): at the next slot, when a definition is written (notice `job_rows` / `reports`), and
 * every 10 minutes as the safety poll (a run that failed is made again then, within the lookback).
 * Exactly once per slot comes from the run's unique key claimed in the run's transaction, not from
 * Agenda's lock, so several workers may run this job at once.
 */
export const reportsJob = defineJob({ runDueReports: RunDueReports, clock: CLOCK }, (use, logger) => {
  /** When this process last began a run (a due time passed since then is due at once). */
  let lastRunAt = use.clock.now();
  return {
    name: REPORTS_JOB,
    every: '10 minutes',
    wakeOn: ['job_rows:reports'],
    nextDueAt: () => use.runDueReports.nextDueAt(lastRunAt),
    async run() {
      lastRunAt = use.clock.now();
      const report = await use.runDueReports.execute();
      if (report.made > 0) logger.info({ job: REPORTS_JOB, ...report }, 'report runs made');
    },
  };
});
