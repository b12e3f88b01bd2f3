import { AnnounceMaintenance } from '../../application/maintenance/announce-maintenance';
import { defineJob } from './job-definition';

export const MAINTENANCE_ANNOUNCEMENTS_JOB = 'maintenance:announce';

/**
 * Every minute: maintenance.started / maintenance.ended for occurrences that began or ended. An Agenda
 * job rather than the check engine's loop: a minute's precision is enough for an announcement, the
 * engine's loop stays about checks, and exactly-once comes from the announcement ledger, not from
 * Agenda's lock (two workers running it at once still announce each transition once).
 */
export const maintenanceAnnouncementsJob = defineJob({ announceMaintenance: AnnounceMaintenance }, (use, logger) => {
  return {
    name: MAINTENANCE_ANNOUNCEMENTS_JOB,
    every: '1 minute',
    async run() {
      const report = await use.announceMaintenance.execute();
      if (report.started + report.ended > 0)
        logger.info({ job: MAINTENANCE_ANNOUNCEMENTS_JOB, ...report }, 'maintenance transitions announced');
    },
  };
});
