import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { CalendarFeed, CalendarFeeds } from '../../application/on-call/ports';
import type { SqlRunner } from '../persistence/database';
import { raw, sql } from '../persistence/sql';

interface FeedRow {
  token_hash: string;
  organization_id: number;
  schedule_id: string | null;
  user_id: string | null;
  created_at: Date | string;
}

/** Calendar feed tokens by digest; one per schedule and per user (partial unique indexes back that up). */
export class SqlCalendarFeeds implements CalendarFeeds {
  constructor(private readonly sql: SqlRunner) {}

  async replace(feed: CalendarFeed, tx: Transaction): Promise<void> {
    const { scheduleId, userId } = feed.subject;
    // One statement: two concurrent replacements cannot both insert, the later one wins.
    const target = scheduleId !== null ? '(schedule_id) WHERE schedule_id IS NOT NULL' : '(user_id) WHERE user_id IS NOT NULL';
    await sqlOf(tx).query(
      sql`INSERT INTO im_calendar_feeds (token_hash, organization_id, schedule_id, user_id, created_at) VALUES (${feed.tokenHash}, ${feed.organizationId}, ${scheduleId}, ${userId}, ${feed.createdAt})
       ON CONFLICT ${raw(target)} DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = EXCLUDED.created_at`,
    );
  }

  async findByTokenHash(tokenHash: string): Promise<CalendarFeed | null> {
    const [row] = await this.sql.query<FeedRow>(
      sql`SELECT token_hash, organization_id, schedule_id, user_id, created_at FROM im_calendar_feeds WHERE token_hash = ${tokenHash}`,
    );
    if (!row) return null;
    return {
      organizationId: Number(row.organization_id),
      tokenHash: row.token_hash,
      createdAt: new Date(row.created_at),
      subject: row.schedule_id !== null ? { scheduleId: row.schedule_id, userId: null } : { scheduleId: null, userId: row.user_id! },
    };
  }
}
