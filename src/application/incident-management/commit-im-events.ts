import { OpenImIncidents, type ImEventDecision } from '../../domain/incident-management/im-event-batch';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import { GroupCommitter, type GroupCommitBounds } from '../shared/group-committer';
import type { ImIncident } from '../../domain/incident-management/im-incident';
import type { ImDedupRef, ImEventBatchChanges, ImEventBatchStore } from './ports';
import { incidentTriggeredBy, type ImEvent, type ProcessedImEvent } from './im-event';

/**
 * Limits: a batch of events holds at most 200 and is sent at most 4 ms after its first event while
 * a commit slot is free; two batches commit at once, and while both do, the next one grows until
 * the first finishes (under load batches grow instead of queueing). The events of one request
 * (an alert source's grouped payload) are never split: a request of more than 200 is a batch alone.
 */
export const IM_EVENT_BATCH: GroupCommitBounds = { maxSize: 200, maxWaitMs: 4, maxConcurrent: 2 };

/** One request's events: committed together, in their order, by the same batch (their keys already given). */
export interface SubmittedImEvents {
  readonly scope: TenantScope;
  readonly events: readonly ImEvent[];
}

/**
 * Events from integrations, group-committed: the events that arrive within a few milliseconds are
 * applied to their incidents by the domain, in arrival order, and stored by one transaction; each
 * caller is answered once its batch is committed (so an answer means the event is durable). A batch
 * that fails fails only its own events. A batch of one event is the same as one event applied alone.
 * `executeAll` submits a request's events as one item, so they are committed by one transaction
 * in their order (all or none) and answered together.
 */
export class CommitImEvents {
  private readonly committer: GroupCommitter<SubmittedImEvents, ProcessedImEvent[]>;

  constructor(
    private readonly store: ImEventBatchStore,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    bounds: GroupCommitBounds = IM_EVENT_BATCH,
  ) {
    this.committer = new GroupCommitter(
      (batch) => this.commitBatch(batch),
      bounds,
      (item) => item.events.length,
    );
  }

  async execute(scope: TenantScope, event: ImEvent): Promise<ProcessedImEvent> {
    return (await this.executeAll(scope, [event]))[0]!;
  }

  /** A request's events, committed together in their order; answered once they are durable. */
  async executeAll(scope: TenantScope, events: readonly ImEvent[]): Promise<ProcessedImEvent[]> {
    if (events.length === 0) return [];
    const keyed = events.map((event) => (event.dedupKey === undefined ? { ...event, dedupKey: this.ids.uuid() } : event));
    return this.committer.submit({ scope, events: keyed });
  }

  private commitBatch(batch: readonly SubmittedImEvents[]): Promise<ProcessedImEvent[][]> {
    return this.store.commit(dedupRefsOf(batch), (loaded) => decideImEventBatch(batch, loaded, this.ids, this.clock.now()));
  }
}

/** The organizations' dedup keys of a batch, each once: what its decision reads (and locks). */
export function dedupRefsOf(batch: readonly SubmittedImEvents[]): ImDedupRef[] {
  const keys = new Map<string, ImDedupRef>();
  for (const { scope, events } of batch) {
    for (const event of events) {
      const ref = { organizationId: scope.organizationId, dedupKey: event.dedupKey! };
      keys.set(`${ref.organizationId}\u0000${ref.dedupKey}`, ref);
    }
  }
  return [...keys.values()];
}

/**
 * A batch's events applied by the domain to the open incidents of its keys, in order: what changed
 * (to be stored) and each event's outcome. The same for events committed at once (CommitImEvents)
 * and for events decided from the intake log (DecideImEvents).
 */
export function decideImEventBatch(
  batch: readonly SubmittedImEvents[],
  loaded: ImIncident[],
  ids: IdGenerator,
  now: Date,
): { changes: ImEventBatchChanges; result: ProcessedImEvent[][] } {
  const open = new OpenImIncidents(loaded);
  const result = batch.map(({ scope, events }) =>
    events.map((event) => {
      const decision = applyEvent(open, scope, event, ids, now);
      return { dedupKey: event.dedupKey!, outcome: decision.outcome, incidentId: decision.incident?.publicId ?? null };
    }),
  );
  return { changes: { created: open.created, updated: open.updated }, result };
}

function applyEvent(open: OpenImIncidents, scope: TenantScope, event: ImEvent, ids: IdGenerator, now: Date): ImEventDecision {
  const dedupKey = event.dedupKey!;
  const details = { event: event.details };
  if (event.action === 'acknowledge') return open.acknowledge(scope.organizationId, dedupKey, now);
  if (event.action === 'resolve') return open.resolve(scope.organizationId, dedupKey, now, details);
  const candidate = () => incidentTriggeredBy(event, scope, { publicId: ids.uuid(), dedupKey, now });
  return open.trigger(scope.organizationId, dedupKey, candidate, now, details);
}
