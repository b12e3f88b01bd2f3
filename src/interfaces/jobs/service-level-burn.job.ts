import { EvaluateBurnAlerts } from '../../application/service-levels/evaluate-burn-alerts';
import { defineJob } from './job-definition';

export const SERVICE_LEVEL_BURN_JOB = 'service-levels:burn';

/**
 * Every minute: the burn rates of the objectives with alerts on, and a breach or its end told once.
 * A minute is a fifth of the shortest burn window (5 min), so a breach is told within a minute of
 * both its windows crossing; exactly-once comes from the objective's claimed burn state, not from
 * Agenda's lock.
 */
export const serviceLevelBurnJob = defineJob({ evaluateBurnAlerts: EvaluateBurnAlerts }, (use, logger) => {
  return {
    name: SERVICE_LEVEL_BURN_JOB,
    every: '1 minute',
    async run() {
      const report = await use.evaluateBurnAlerts.execute();
      if (report.burning + report.recovered > 0) logger.info({ job: SERVICE_LEVEL_BURN_JOB, ...report }, 'burn-rate alerts told');
    },
  };
});
