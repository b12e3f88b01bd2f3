import type { PendingSecurityNotice, SecurityNoticeFeed } from '../../application/notifications/ports';
import { decodePublishedEvent, type OutboxRow, type RefusedEvents } from '../event-catalogue/published-events';
import { warnRefused } from '../event-catalogue/refused';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

const KIND = 'identity.securityNotice';

/**
 * The security notices of the outbox not sent yet, read through the event decoder on the caller's
 * unit of work (FOR UPDATE SKIP LOCKED). Sent notices are marked routed and delivered (handed to the
 * delivery ledger); a refused row is reported and set aside (marked routed, left undelivered, so the
 * outbox backlog gauge keeps showing it).
 */
export class SqlSecurityNoticeFeed implements SecurityNoticeFeed {
  constructor(
    private readonly sql: SqlRunner,
    private readonly refused: RefusedEvents = warnRefused,
  ) {}

  async next(limit: number, tx: Transaction): Promise<PendingSecurityNotice[]> {
    const on = sqlOf(tx);
    const rows = await on.query<OutboxRow>(
      sql`SELECT id, organization_id, kind, payload FROM notification_outbox
        WHERE routed_at IS NULL AND kind = ${KIND} AND payload IS NOT NULL
        ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
    );
    const notices: PendingSecurityNotice[] = [];
    const refused: { id: number; kind: string; reason: string }[] = [];
    for (const row of rows) {
      const decoded = decodePublishedEvent(row);
      if (decoded.ok && decoded.event.kind === KIND) notices.push({ id: decoded.id, event: decoded.event });
      else refused.push(decoded.ok ? { id: decoded.id, kind: row.kind, reason: 'not a security notice' } : decoded);
    }
    if (refused.length > 0) {
      this.refused(refused);
      await on.query(
        sql`UPDATE notification_outbox SET routed_at = now() WHERE id = ANY(${refused.map((r) => r.id)}::bigint[]) AND routed_at IS NULL`,
      );
    }
    return notices;
  }

  async markSent(ids: readonly number[], at: Date, tx: Transaction): Promise<void> {
    if (ids.length === 0) return;
    await sqlOf(tx).query(
      sql`UPDATE notification_outbox SET routed_at = ${at}, delivered_at = coalesce(delivered_at, ${at}) WHERE id = ANY(${ids}::bigint[])`,
    );
  }
}
