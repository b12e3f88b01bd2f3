import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import {
  ReportRun,
  type NewReportRun,
  type ReportRunFilter,
  type ReportRunStatus,
  type ReportRunSummary,
  type ReportRuns,
} from '../../application/reports/ports';
import type { SqlRunner } from '../persistence/database';
import { refCondition } from '../persistence/tenant-scope';
import { raw, sql } from '../persistence/sql';

interface RunRow {
  id: number;
  public_id: string;
  organization_id: number;
  report_id: number | null;
  report_public_id: string | null;
  customer_id: number | null;
  trigger: 'schedule' | 'manual';
  slot: Date | null;
  period_from: Date;
  period_to: Date;
  status: ReportRunStatus;
  pdf_path: string | null;
  summary: ReportRunSummary | null;
  recipients: string[];
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
}

const COLUMNS = `r.id, r.public_id, r.organization_id, r.report_id, r.report_public_id, r.customer_id, r.trigger, r.slot,
  r.period_from, r.period_to, r.status, r.pdf_path, r.summary, r.recipients, r.error, r.started_at, r.finished_at`;

const toRun = (row: RunRow): ReportRun =>
  ReportRun.restore({
    id: row.id,
    publicId: row.public_id,
    organizationId: row.organization_id,
    reportId: row.report_id,
    reportPublicId: row.report_public_id,
    customerId: row.customer_id,
    trigger: row.trigger,
    slot: row.slot ? new Date(row.slot) : null,
    period: { from: new Date(row.period_from), to: new Date(row.period_to) },
    status: row.status,
    pdfPath: row.pdf_path,
    summary: row.summary,
    recipients: row.recipients,
    error: row.error,
    startedAt: new Date(row.started_at),
    finishedAt: row.finished_at ? new Date(row.finished_at) : null,
  });

/** Runs in report_runs; the partial unique indexes on (report_id, slot) and (customer_id, slot) decide a claim. */
export class SqlReportRuns implements ReportRuns {
  constructor(private readonly sql: SqlRunner) {}

  async claim(run: NewReportRun, tx: Transaction): Promise<ReportRun | null> {
    const [row] = await sqlOf(tx).query<RunRow>(
      sql`INSERT INTO report_runs AS r (public_id, organization_id, report_id, report_public_id, customer_id, trigger, slot,
         period_from, period_to, status, started_at)
       VALUES (${run.publicId}, ${run.organizationId}, ${run.reportId}, ${run.reportPublicId}, ${run.customerId}, ${run.trigger}, ${run.slot}, ${run.period.from}, ${run.period.to}, 'running', ${run.startedAt})
       ON CONFLICT DO NOTHING RETURNING ${raw(COLUMNS)}`,
    );
    return row ? toRun(row) : null;
  }

  async slotTaken(key: { reportId: number } | { customerId: number }, slot: Date): Promise<boolean> {
    const [column, id] = 'reportId' in key ? ['report_id', key.reportId] : ['customer_id', key.customerId];
    const rows = await this.sql.query(
      sql`SELECT 1 FROM report_runs WHERE ${raw(column)} = ${id} AND slot = ${slot} AND trigger = 'schedule'`,
    );
    return rows.length > 0;
  }

  async finish(run: ReportRun, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(
      sql`UPDATE report_runs SET status = ${run.status}, pdf_path = ${run.pdfPath}, summary = ${run.summary && JSON.stringify(run.summary)}::jsonb, recipients = ${JSON.stringify(run.recipients)}::jsonb, error = ${run.error}, finished_at = ${run.finishedAt} WHERE id = ${run.id}`,
    );
  }

  async findByRef(scope: TenantScope, ref: string): Promise<ReportRun | null> {
    const condition = refCondition(ref, 'r');
    if (!condition || scope.customerId !== null) return null;
    const [row] = await this.sql.query<RunRow>(
      sql`SELECT ${raw(COLUMNS)} FROM report_runs r WHERE ${condition} AND r.organization_id = ${scope.organizationId}`,
    );
    return row ? toRun(row) : null;
  }

  async list(
    scope: TenantScope,
    filter: ReportRunFilter,
    page: { page: number; perPage: number },
  ): Promise<{ items: ReportRun[]; total: number }> {
    if (scope.customerId !== null) return { items: [], total: 0 };
    const reportId = filter.reportId ?? null;
    const status = filter.status ?? null;
    const where = sql`r.organization_id = ${scope.organizationId} AND (${reportId}::integer IS NULL OR r.report_id = ${reportId}) AND (${status}::text IS NULL OR r.status = ${status})`;
    const [count] = await this.sql.query<{ n: string }>(sql`SELECT count(*) AS n FROM report_runs r WHERE ${where}`);
    const rows = await this.sql.query<RunRow>(
      sql`SELECT ${raw(COLUMNS)} FROM report_runs r WHERE ${where} ORDER BY r.id DESC LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`,
    );
    return { items: rows.map(toRun), total: Number(count!.n) };
  }
}
