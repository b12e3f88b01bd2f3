import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { ReportBranding, ReportLogo } from '../../application/reports/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** The logo in report_logos, one row per organization. */
export class SqlReportBranding implements ReportBranding {
  constructor(private readonly sql: SqlRunner) {}

  async setLogo(organizationId: number, logo: ReportLogo | null, at: Date, tx: Transaction): Promise<void> {
    const on = sqlOf(tx);
    if (!logo) {
      await on.query(sql`DELETE FROM report_logos WHERE organization_id = ${organizationId}`);
      return;
    }
    await on.query(sql`INSERT INTO report_logos (organization_id, content_type, bytes, updated_at) VALUES (${organizationId}, ${logo.contentType}, decode(${Buffer.from(logo.bytes).toString('base64')}, 'base64'), ${at})
       ON CONFLICT (organization_id) DO UPDATE SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, updated_at = EXCLUDED.updated_at`);
  }
}
