import { RunDueEscalations } from '../../application/on-call/run-due-escalations';
import { RouteMonitorIncident } from '../../application/incident-management/route-monitor-incident';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { defineJob } from './job-definition';

export const ESCALATIONS_JOB = 'im:escalations';

/**
 * Every 15 seconds: pages the escalation steps that came due. Durability and once-per-step come from
 * the escalation ledger's rows (claimed with SKIP LOCKED, moved on in the transaction that writes
 * the pages), not from Agenda's lock, so a restart or a second worker neither loses nor repeats a step.
 * Then it resolves monitor storms whose last two recoveries raced (each saw the other still down).
 */
export const escalationsJob = defineJob(
  { runDueEscalations: RunDueEscalations, routeMonitorIncident: RouteMonitorIncident, transactionRunner: TRANSACTION_RUNNER },
  (use, logger) => {
    return {
      name: ESCALATIONS_JOB,
      every: '15 seconds',
      async run() {
        const report = await use.runDueEscalations.execute();
        const route = use.routeMonitorIncident;
        const stormsResolved = await use.transactionRunner.run(() => route.resolveAllRecovered());
        if (report.stepsPaged > 0 || report.adopted > 0 || stormsResolved > 0) {
          logger.info({ job: ESCALATIONS_JOB, ...report, stormsResolved }, 'escalations run');
        }
      },
    };
  },
);
