import { hostname } from 'node:os';
import { GenerateDataExports } from '../../application/data-export/generate-data-exports';
import { defineJob } from './job-definition';

export const DATA_EXPORT_JOB = 'data-export:run';

/**
 * Generates queued exports, takes over those of a worker that stopped (its lease lapsed), and deletes
 * archives past their seven days: at once when an export is requested (queued on the job system), at
 * its exports' next due time (the oldest queued, a lease's end, an archive's expiry: every process
 * with jobs sleeps until then, so a crashed process's export is taken up as its lease lapses), and
 * every hour as the safety poll. Two processes running it at once never generate one export twice:
 * claims are leased rows.
 */
export const dataExportJob = defineJob({ generateDataExports: GenerateDataExports }, (use, logger) => {
  const owner = `${hostname()}:${process.pid}`;
  return {
    name: DATA_EXPORT_JOB,
    every: '1 hour',
    nextDueAt: () => use.generateDataExports.nextDueAt(),
    async run() {
      const round = await use.generateDataExports.execute(owner, (e, rowsDone, rowsTotal) => {
        logger.debug({ job: DATA_EXPORT_JOB, exportId: e.id, rowsDone, rowsTotal }, 'data export progress');
      });
      for (const e of round.released)
        logger.warn({ job: DATA_EXPORT_JOB, exportId: e.id, status: e.status }, 'data export taken over after its worker stopped');
      for (const id of round.generated) logger.info({ job: DATA_EXPORT_JOB, exportId: id }, 'data export ready');
      for (const f of round.failed) logger.error({ job: DATA_EXPORT_JOB, exportId: f.id, error: f.error }, 'data export failed');
      if (round.expired > 0) logger.info({ job: DATA_EXPORT_JOB, expired: round.expired }, 'data exports expired');
    },
  };
});
