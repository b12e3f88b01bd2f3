import { RequestContext, type MikroORM } from '@mikro-orm/postgresql';
import type { CheckOutcome, OutcomeRecorder } from '../../application/scheduling/ports';

/**
 * Gives every recorded chunk a unit of work of its own. Without it the entities of every chunk
 * (alert states, incidents) pile up in one identity map that each following transaction copies and
 * flushes again, which grows quadratically with the number of checks a worker records.
 */
export class FreshContextRecorder implements OutcomeRecorder {
  constructor(
    private readonly orm: MikroORM,
    private readonly inner: OutcomeRecorder,
  ) {}

  record(workerId: string, outcomes: readonly CheckOutcome[], now: Date, aliveUntil: Date) {
    return RequestContext.create(this.orm.em, () => this.inner.record(workerId, outcomes, now, aliveUntil));
  }
}
