import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { RunDueEscalations } from '../../application/on-call/run-due-escalations';
import type { JobDefinition } from './job-definition';

export const ESCALATIONS_JOB = 'im:escalations';

/**
 * Every 15 seconds: pages the escalation steps that came due. Durability and once-per-step come from
 * the escalation ledger's rows (claimed with SKIP LOCKED, moved on in the transaction that writes
 * the pages), not from Agenda's lock, so a restart or a second worker neither loses nor repeats a step.
 */
export function escalationsJob(container: Container, logger: Logger): JobDefinition {
  return {
    name: ESCALATIONS_JOB,
    every: '15 seconds',
    async run() {
      const report = await container.get(RunDueEscalations).execute();
      if (report.stepsPaged > 0 || report.adopted > 0) logger.info({ job: ESCALATIONS_JOB, ...report }, 'escalations run');
    },
  };
}
