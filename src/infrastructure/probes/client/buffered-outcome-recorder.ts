import type { CheckOutcome, OutcomeRecorder, RecordedOutcomes } from '../../../application/scheduling/ports';
import { resultToWire } from '../../../application/probes/wire';
import type { DiskResultBuffer } from './disk-result-buffer';

/**
 * A probe's recording: finished checks go to the disk buffer (the sender reports them), so checking
 * never waits on the server. Whether the worker is still alive is learnt from the server's answers
 * (its lease is renewed by its own calls, not by recording): a worker the server fenced is told so
 * at its next recording, forgets its rows and registers again. Outcomes a fenced worker could not
 * record are buffered too: the server keeps them as late history.
 */
export class BufferedOutcomeRecorder implements OutcomeRecorder {
  private readonly fenced = new Set<string>();

  constructor(
    private readonly buffer: DiskResultBuffer,
    private readonly written: () => void,
  ) {}

  /** The server answered that these workers are no longer alive. */
  fence(workers: readonly string[]): void {
    for (const worker of workers) this.fenced.add(worker);
  }

  async record(workerId: string, outcomes: readonly CheckOutcome[]): Promise<RecordedOutcomes> {
    await this.keep(workerId, outcomes);
    const fenced = this.fenced.has(workerId);
    if (fenced) this.fenced.clear();
    return { recorded: outcomes.length, dropped: 0, fenced, renewed: false };
  }

  abandoned(workerId: string, outcomes: readonly CheckOutcome[]): void {
    void this.keep(workerId, outcomes);
  }

  private async keep(worker: string, outcomes: readonly CheckOutcome[]): Promise<void> {
    await this.buffer.append(outcomes.length, (seq, i) => {
      const { planned, result, startedAt } = outcomes[i]!;
      return JSON.stringify(resultToWire(seq, worker, planned.check.monitorId, planned.check.slot, startedAt, result));
    });
    this.written();
  }
}
