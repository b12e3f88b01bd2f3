import { latenessMs } from '../../domain/scheduling/check-slot';
import type { CheckOutcome, OutcomeRecorder, RecordedOutcomes } from '../scheduling/ports';
import type { EngineMetrics } from './ports';

/**
 * The recording port, metered: every outcome handed over is a check that ran (kind, location,
 * status) and carries its slot and start time, so start lateness is measured here without the
 * engine knowing about metrics. Counted before recording, since a check ran whether or not its
 * result is then stored.
 */
export class MeteredOutcomeRecorder implements OutcomeRecorder {
  constructor(
    private readonly inner: OutcomeRecorder,
    private readonly metrics: EngineMetrics,
  ) {}

  async record(workerId: string, outcomes: readonly CheckOutcome[], now: Date, aliveUntil: Date): Promise<RecordedOutcomes> {
    for (const { planned, result, startedAt } of outcomes) {
      this.metrics.checkRan(planned.request.kind, planned.check.location, result.status, latenessMs(planned.check.slot, startedAt));
    }
    const recorded = await this.inner.record(workerId, outcomes, now, aliveUntil);
    this.metrics.resultsRecorded(recorded.recorded, recorded.dropped);
    return recorded;
  }
}
