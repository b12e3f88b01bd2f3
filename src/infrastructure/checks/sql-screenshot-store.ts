import { SCREENSHOTS_PER_MONITOR, type Screenshot, type ScreenshotStore } from '../../application/checks/ports';
import type { ScreenshotRetention } from '../../application/results/ports';
import type { SqlRunner } from '../persistence/database';
import { raw, sql } from '../persistence/sql';

interface Row {
  id: string;
  monitor_id: string;
  organization_id: number;
  taken_at: Date;
  png: Buffer;
}

/** check_screenshots: PNG bytes by id, a monitor's newest SCREENSHOTS_PER_MONITOR kept. */
export class SqlScreenshotStore implements ScreenshotStore, ScreenshotRetention {
  constructor(private readonly sql: SqlRunner) {}

  async save(s: Screenshot): Promise<void> {
    await this.sql.query(
      sql`INSERT INTO check_screenshots (id, monitor_id, organization_id, taken_at, png) VALUES (${s.id}, ${s.monitorId}, ${s.organizationId}, ${s.takenAt}, ${Buffer.from(s.png)})`,
    );
    await this.sql.query(
      sql`DELETE FROM check_screenshots WHERE id IN (
         SELECT id FROM check_screenshots WHERE monitor_id = ${s.monitorId} ORDER BY taken_at DESC, id OFFSET ${raw(String(SCREENSHOTS_PER_MONITOR))})`,
    );
  }

  async find(monitorId: number, id: string): Promise<Screenshot | null> {
    const [row] = await this.sql.query<Row>(
      sql`SELECT id, monitor_id, organization_id, taken_at, png FROM check_screenshots WHERE id = ${id} AND monitor_id = ${monitorId}`,
    );
    return row
      ? {
          id: row.id,
          monitorId: Number(row.monitor_id),
          organizationId: row.organization_id,
          takenAt: new Date(row.taken_at),
          png: row.png,
        }
      : null;
  }

  async purgeBefore(before: Date): Promise<number> {
    const rows = await this.sql.query<{ id: string }>(sql`DELETE FROM check_screenshots WHERE taken_at < ${before} RETURNING id`);
    return rows.length;
  }
}
