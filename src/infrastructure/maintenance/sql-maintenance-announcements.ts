import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { MaintenanceAnnouncements } from '../../application/maintenance/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** The announcement ledger: the primary key (window, occurrence start, kind) lets exactly one claim win. */
export class SqlMaintenanceAnnouncements implements MaintenanceAnnouncements {
  constructor(private readonly sql: SqlRunner) {}

  async claim(
    windowId: number,
    kind: 'maintenance.started' | 'maintenance.ended',
    occurrenceStart: Date,
    tx: Transaction,
  ): Promise<boolean> {
    const rows = await sqlOf(tx)
      .query(sql`INSERT INTO maintenance_announcements (window_id, kind, occurrence_start) VALUES (${windowId}, ${kind}, ${occurrenceStart})
       ON CONFLICT DO NOTHING RETURNING window_id`);
    return rows.length > 0;
  }
}
