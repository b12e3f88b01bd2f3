import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import { GroupCommitter, type GroupCommitBounds } from '../shared/group-committer';
import type { ImEventIntakeLog } from './ports';
import type { ImEvent } from './im-event';

/**
 * Limits: an intake batch holds at most 200 events and is sent at most 4 ms after its first event
 * while a commit slot is free; two batches commit at once, and while both do, the next one grows.
 */
export const IM_EVENT_INTAKE_BATCH: GroupCommitBounds = { maxSize: 200, maxWaitMs: 4, maxConcurrent: 2 };

/** An event accepted: durable in the intake log, decided shortly after (DecideImEvents). */
export interface AcceptedImEvent {
  readonly dedupKey: string;
}

interface Submitted {
  readonly organizationId: number;
  readonly eventId: string;
  readonly event: ImEvent;
}

/**
 * Events from integrations accepted into the intake log, group-committed: the events that arrive
 * within a few milliseconds are appended by one statement in one transaction, and each caller is
 * answered once that transaction committed (accepted means durable). The incident is decided from
 * the log right after, in order, by the decider. Each event gets its key (`eventId`) before its
 * batch is formed, so a batch sent again after a commit whose outcome was unclear (the connection
 * lost at COMMIT) appends none of its events twice. A batch that cannot be stored fails only its
 * own events (nothing of them was kept).
 */
export class AcceptImEvents {
  private readonly committer: GroupCommitter<Submitted, AcceptedImEvent>;

  constructor(
    private readonly log: ImEventIntakeLog,
    private readonly transactions: TransactionRunner,
    private readonly ids: IdGenerator,
    bounds: GroupCommitBounds = IM_EVENT_INTAKE_BATCH,
  ) {
    this.committer = new GroupCommitter((batch) => this.commitBatch(batch), bounds);
  }

  /** The event (a trigger without a dedup key gets a fresh one), answered once durable in the log. */
  execute(scope: TenantScope, event: ImEvent): Promise<AcceptedImEvent> {
    const keyed = event.dedupKey === undefined ? { ...event, dedupKey: this.ids.uuid() } : event;
    return this.committer.submit({ organizationId: scope.organizationId, eventId: this.ids.uuid(), event: keyed });
  }

  private async commitBatch(batch: readonly Submitted[]): Promise<AcceptedImEvent[]> {
    try {
      await this.transactions.run((tx) => this.log.append(tx, batch));
    } catch {
      // Once more with the same keys: what the first attempt may have stored is not appended again.
      await this.transactions.run((tx) => this.log.append(tx, batch));
    }
    return batch.map((item) => ({ dedupKey: item.event.dedupKey! }));
  }
}
