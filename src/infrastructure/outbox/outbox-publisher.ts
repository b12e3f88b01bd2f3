import type { DomainEventPublisher } from '../../application/shared/domain-events';
import type { DomainEvent, EventCodec, EventRecord } from '../../domain/shared/domain-event';
import type { SqlRunner } from '../persistence/database';
import { empty, raw, sql, type Sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';
import { appendLiveEvents, type LiveEventNotice } from '../live-events/live-event-append';

/**
 * The event transport: every context's events are rows of the outbox table (`notification_outbox`
 * for history's sake: kind = the event's kind, payload = what the publisher's codec writes, subject
 * and body = its one-line text), written in the transaction of the change that caused them. The
 * readers (routing to channels, status page subscribers) read them back through one decoder
 * (infrastructure/event-catalogue).
 */

/**
 * The INSERT of events into the outbox, as a statement or a step of a larger one, one row per
 * record in the records' order (the router reads them by id). `after` names the CTE the rows
 * depend on: they are written only for the rows that step answered (none answered, none written).
 */
export function outboxInsert(records: readonly EventRecord[], after?: string): Sql {
  const rows = JSON.stringify(records.map((r) => ({ o: r.organizationId, k: r.kind, s: r.summary, p: r.payload })));
  const guard = after === undefined ? empty : sql`(SELECT 1 FROM ${rawName(after)} LIMIT 1) AS guard, `;
  return sql`INSERT INTO notification_outbox (organization_id, kind, payload, subject, body)
       SELECT (e->>'o')::integer, e->>'k', e->'p', e->>'s', e->>'s'
         FROM ${guard}jsonb_array_elements(${rows}::jsonb) WITH ORDINALITY AS r(e, n) ORDER BY n`;
}

const NAME = /^[a-z_][a-z0-9_]*$/;
function rawName(name: string): Sql {
  if (!NAME.test(name)) throw new TypeError(`not a CTE name: ${name}`);
  return raw(name);
}

/**
 * The one publisher of every context's events (bound to each context's port with its codec): one
 * statement for the list, on the caller's unit of work, so the events commit with the change. A
 * context whose events the live stream tells (GET /api/events) gives `live`, its events' live
 * notices: appended to the live event log in the same transaction (infrastructure/live-events).
 */
export class OutboxEventPublisher<E extends DomainEvent> implements DomainEventPublisher<E> {
  constructor(
    private readonly sql: SqlRunner,
    private readonly codec: Pick<EventCodec<E>, 'encode'>,
    private readonly live: (event: E) => LiveEventNotice | null = () => null,
  ) {}

  async publish(events: readonly E[], tx: Transaction): Promise<void> {
    if (events.length === 0) return;
    await sqlOf(tx).query(outboxInsert(events.map((e) => this.codec.encode(e))));
    await appendLiveEvents(
      tx,
      events.flatMap((e) => this.live(e) ?? []),
    );
  }
}
