import { AnnounceMaintenance } from '../../application/maintenance/announce-maintenance';
import { CLOCK } from '../../application/shared/clock';
import { defineJob } from './job-definition';

export const MAINTENANCE_ANNOUNCEMENTS_JOB = 'maintenance:announce';

/**
 * maintenance.started / maintenance.ended for occurrences that began or ended: at the next
 * occurrence's start or end (read from the active windows), when a window is written (notice
 * `job_rows` / `maintenance`), and every 10 minutes as the safety poll. A job rather than the
 * check engine's loop: the engine's loop stays about checks, and exactly-once comes from the
 * announcement ledger, not from Agenda's lock (two workers running it at once still announce each
 * transition once).
 */
export const maintenanceAnnouncementsJob = defineJob({ announceMaintenance: AnnounceMaintenance, clock: CLOCK }, (use, logger) => {
  /** When this process last began a run (a due time passed since then is due at once). */
  let lastRunAt = use.clock.now();
  return {
    name: MAINTENANCE_ANNOUNCEMENTS_JOB,
    every: '10 minutes',
    wakeOn: ['job_rows:maintenance'],
    nextDueAt: () => use.announceMaintenance.nextDueAt(lastRunAt),
    async run() {
      lastRunAt = use.clock.now();
      const report = await use.announceMaintenance.execute();
      if (report.started + report.ended > 0)
        logger.info({ job: MAINTENANCE_ANNOUNCEMENTS_JOB, ...report }, 'maintenance transitions announced');
    },
  };
});
