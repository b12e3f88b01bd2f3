import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import { decideImEventBatch, dedupRefsOf, type SubmittedImEvents } from './commit-im-events';
import type { ImEventBatchStore, ImEventIntakeLog } from './ports';

/** Limits: the decider takes at most 500 accepted events a round. */
export const IM_EVENT_DECIDER_BATCH = 500;

/**
 * Decides accepted events from the intake log: one round is one transaction that holds the
 * decider's turn (one decider at a time across processes, so events are decided in the log's
 * order, which is each dedup key's order of acceptance), reads the oldest entries, applies them to
 * their incidents as events committed at once are applied (decideImEventBatch: dedup keys, trigger,
 * acknowledge and resolve in order), writes the changes with the keys locked, and removes the
 * entries. The decision and the removal commit together: an event is decided exactly once, and one
 * accepted before a kill is decided after the restart.
 */
export class DecideImEvents {
  constructor(
    private readonly log: ImEventIntakeLog,
    private readonly store: ImEventBatchStore,
    private readonly transactions: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** Events decided by one round (0: none left), or null when another decider holds the turn. */
  decideNext(limit: number = IM_EVENT_DECIDER_BATCH): Promise<number | null> {
    return this.transactions.run(async (tx) => {
      const entries = await this.log.take(tx, limit);
      if (entries === false) return null;
      if (entries.length === 0) return 0;
      // An organization deleted after its events were accepted took its incidents with it: its entries are only removed.
      const batch: SubmittedImEvents[] = entries
        .filter((entry) => !entry.organizationGone)
        .map((entry) => ({
          scope: { organizationId: entry.organizationId, customerId: null },
          events: [entry.event],
        }));
      if (batch.length > 0) {
        await this.store.commitIn(tx, dedupRefsOf(batch), (loaded) => decideImEventBatch(batch, loaded, this.ids, this.clock.now()));
      }
      const removed = await this.log.remove(
        tx,
        entries.map((entry) => entry.seq),
      );
      // Only the turn's holder removes entries; anything else would decide an event twice: roll back.
      if (removed !== entries.length) throw new Error(`intake entries decided elsewhere (${removed} of ${entries.length} left)`);
      return entries.length;
    });
  }
}
