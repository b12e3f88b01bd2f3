import { EvaluateBurnAlerts } from '../../application/service-levels/evaluate-burn-alerts';
import { CLOCK } from '../../application/shared/clock';
import { defineJob } from './job-definition';

export const SERVICE_LEVEL_BURN_JOB = 'service-levels:burn';

/**
 * The burn rates of the objectives with alerts on, and a breach or its end told once: every minute
 * while an objective has alerts on (a fifth of the shortest burn window, 5 min, so a breach is told
 * within a minute of both its windows crossing), not at all without one; an objective written
 * wakes it (notice `job_rows` / `service-levels`); every 10 minutes as the safety poll.
 * Exactly-once comes from the objective's claimed burn state, not from Agenda's lock.
 */
export const serviceLevelBurnJob = defineJob({ evaluateBurnAlerts: EvaluateBurnAlerts, clock: CLOCK }, (use, logger) => {
  let lastRunAt: Date | null = null;
  return {
    name: SERVICE_LEVEL_BURN_JOB,
    every: '10 minutes',
    wakeOn: ['job_rows:service-levels'],
    nextDueAt: () => use.evaluateBurnAlerts.nextDueAt(lastRunAt),
    async run() {
      lastRunAt = use.clock.now();
      const report = await use.evaluateBurnAlerts.execute();
      if (report.burning + report.recovered > 0) logger.info({ job: SERVICE_LEVEL_BURN_JOB, ...report }, 'burn-rate alerts told');
    },
  };
});
