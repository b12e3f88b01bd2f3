import type { CheckResult } from '../../domain/checks/check-result';
import type { CheckObservation } from '../../domain/results/check-status';
import { confirmationsOf } from '../../domain/incidents/confirmation';
import type { TransactionRunner } from '../shared/transaction';
import type { RecordCheckResult } from '../incidents/record-check-result';
import type { RecordCheckResultInput } from '../incidents/record-check-result';
import type { CheckOutcome, CheckSchedule, OutcomeRecorder, RecordedOutcomes, SteadyCheckResults } from './ports';

export const observationOf = (result: CheckResult): CheckObservation => ({
  status: result.status,
  reasonCode: result.reason?.code ?? null,
  message: result.reason?.message ?? null,
  timings: result.timings,
  evidence: result.evidence as Record<string, unknown>,
  checkedAt: result.checkedAt,
});

/**
 * Records a batch of finished checks with the worker's renewal, and logs the confirmation checks
 * its results ask for (confirmation.ts: one per monitor, run from every location at once) in the
 * same transaction: results are stored and judged by the alert rules only while the worker is
 * alive and unfenced, so once another worker has taken its rows over, its late outcomes count for
 * nothing (each slot counts once). The renewal is the transaction's last write, and a refused one
 * rolls the batch back: the worker's row stays locked only from there to the commit, so two
 * batches of one worker are judged and written at once (BatchRecorder's chunks in flight), and
 * a fence committed before the renewal still voids the batch. Monitors are handled in id order so
 * concurrent batches lock alike. A batch the steady memo alone knows to be steady (every result
 * up, nothing to judge or confirm) is stored with the renewal by one write of its own (`steady`):
 * a steady engine spends one statement a round instead of a transaction of four.
 */
export class RecordOutcomes implements OutcomeRecorder {
  constructor(
    private readonly schedule: CheckSchedule,
    private readonly recordResult: RecordCheckResult,
    private readonly tx: TransactionRunner,
    private readonly steady: SteadyCheckResults,
  ) {}

  async record(workerId: string, outcomes: readonly CheckOutcome[], now: Date, aliveUntil: Date): Promise<RecordedOutcomes> {
    if (outcomes.length === 0) return { recorded: 0, dropped: 0, fenced: false };
    const inputs = [...outcomes]
      .sort((a, b) => a.planned.check.monitorId - b.planned.check.monitorId)
      .map(({ planned, result }): RecordCheckResultInput => ({
        monitorId: planned.check.monitorId,
        organizationId: planned.organizationId,
        customerId: planned.customerId,
        location: planned.check.location,
        intervalMs: planned.check.intervalMs,
        result: observationOf(result),
      }));
    const steadyRows = this.recordResult.knownSteadyRows(inputs);
    if (steadyRows) {
      return (await this.steady.storeRenewing(workerId, now, aliveUntil, steadyRows))
        ? { recorded: outcomes.length, dropped: 0, fenced: false }
        : { recorded: 0, dropped: outcomes.length, fenced: true };
    }
    try {
      return await this.tx.run(async (tx) => {
        const { judged, recheck } = await this.recordResult.executeMany(inputs, tx);
        await this.schedule.confirmAt([...confirmationsOf(judged), ...recheck], tx);
        if (!(await this.schedule.renew(workerId, now, aliveUntil, tx))) throw FENCED;
        return { recorded: outcomes.length, dropped: 0, fenced: false };
      });
    } catch (error) {
      if (error === FENCED) return { recorded: 0, dropped: outcomes.length, fenced: true };
      throw error;
    }
  }
}

/** Thrown to roll back the batch of a worker whose renewal, its transaction's last write, found it fenced. */
const FENCED = new Error('the worker was fenced: its batch is rolled back');
