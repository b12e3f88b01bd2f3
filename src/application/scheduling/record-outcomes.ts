import type { CheckResult } from '../../domain/checks/check-result';
import type { CheckObservation } from '../../domain/results/check-status';
import type { TransactionRunner } from '../shared/transaction';
import type { RecordCheckResult } from '../incidents/record-check-result';
import type { CheckOutcome, CheckSchedule, OutcomeRecorder } from './ports';

export const observationOf = (result: CheckResult): CheckObservation => ({
  status: result.status,
  reasonCode: result.reason?.code ?? null,
  message: result.reason?.message ?? null,
  timings: result.timings,
  evidence: result.evidence as Record<string, unknown>,
  checkedAt: result.checkedAt,
});

/**
 * Completes a batch of finished checks in one transaction: the slots this worker still holds move
 * on, and exactly their results are stored and judged by the alert rules. A crash before commit
 * leaves the slots leased and unrecorded (they run again when the lease lapses); after commit,
 * nothing runs twice. Monitors are handled in id order so concurrent batches lock alike.
 */
export class RecordOutcomes implements OutcomeRecorder {
  constructor(
    private readonly schedule: CheckSchedule,
    private readonly recordResult: RecordCheckResult,
    private readonly tx: TransactionRunner,
  ) {}

  async record(workerId: string, outcomes: readonly CheckOutcome[]): Promise<{ recorded: number; dropped: number }> {
    if (outcomes.length === 0) return { recorded: 0, dropped: 0 };
    const ordered = [...outcomes].sort((a, b) => a.planned.check.monitorId - b.planned.check.monitorId);
    const held = await this.tx.run(async () => {
      const held = await this.schedule.complete(workerId, ordered.map((o) => ({ check: o.planned.check, nextSlot: o.nextSlot })));
      const keep = new Set(held.map((h) => h.check));
      await this.recordResult.executeMany(ordered.filter((o) => keep.has(o.planned.check)).map(({ planned, result }) => ({
        monitorId: planned.check.monitorId, organizationId: planned.organizationId, customerId: planned.customerId,
        location: planned.check.location, result: observationOf(result),
      })));
      return held.length;
    });
    return { recorded: held, dropped: outcomes.length - held };
  }
}
