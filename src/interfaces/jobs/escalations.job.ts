import { RunDueEscalations } from '../../application/on-call/run-due-escalations';
import { ESCALATION_DUE_TIMES } from '../../application/on-call/ports';
import { RouteMonitorIncident } from '../../application/incident-management/route-monitor-incident';
import { CLOCK } from '../../application/shared/clock';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { defineJob } from './job-definition';

export const ESCALATIONS_JOB = 'im:escalations';

/**
 * Pages the escalation steps that came due: at the soonest step's due time (read from the ledger),
 * when an incident opens, a ledger row is written or brought forward, or a routed engine incident
 * recovers (notice `job_rows` / `escalations`), and every 5 minutes as the safety poll.
 * Durability and once-per-step come from the escalation ledger's rows (claimed with SKIP LOCKED,
 * moved on in the transaction that writes the pages), not from Agenda's lock, so a restart or a
 * second worker neither loses nor repeats a step. Then it resolves monitor storms whose last two
 * recoveries raced (each saw the other still down).
 */
export const escalationsJob = defineJob(
  {
    runDueEscalations: RunDueEscalations,
    routeMonitorIncident: RouteMonitorIncident,
    transactionRunner: TRANSACTION_RUNNER,
    dueTimes: ESCALATION_DUE_TIMES,
    clock: CLOCK,
  },
  (use, logger) => {
    return {
      name: ESCALATIONS_JOB,
      every: '5 minutes',
      wakeOn: ['job_rows:escalations'],
      nextDueAt: () => use.dueTimes.nextDueAt(use.clock.now()),
      async run() {
        const report = await use.runDueEscalations.execute();
        const route = use.routeMonitorIncident;
        const stormsResolved = await use.transactionRunner.run((tx) => route.resolveAllRecovered(tx));
        if (report.stepsPaged > 0 || report.adopted > 0 || stormsResolved > 0) {
          logger.info({ job: ESCALATIONS_JOB, ...report, stormsResolved }, 'escalations run');
        }
      },
    };
  },
);
