import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { DataExport, ExportStatus } from '../../domain/data-export/data-export';
import type { DataExportRepository, ExportFile } from '../../application/data-export/ports';
import type { SqlRunner } from '../persistence/database';
import { raw, sql } from '../persistence/sql';

interface Row {
  id: string;
  organization_id: number;
  requested_by: string | null;
  recipient_emails: string[];
  status: ExportStatus;
  rows_done: string;
  rows_total: string | null;
  attempts: number;
  file_bytes: string | null;
  error: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  expires_at: Date | string | null;
}

/** The unit of work's connection answers timestamps as text, the pool's as dates: either way a Date. */
const date = (value: Date | string): Date => new Date(value);
const dateOrNull = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

const COLUMNS = `id::text, organization_id, requested_by::text, recipient_emails, status, rows_done, rows_total, attempts, file_bytes, error,
  created_at, started_at, finished_at, expires_at`;

const toExport = (row: Row): DataExport => ({
  id: row.id,
  organizationId: row.organization_id,
  requestedBy: row.requested_by,
  recipientEmails: row.recipient_emails,
  status: row.status,
  rowsDone: Number(row.rows_done),
  rowsTotal: row.rows_total === null ? null : Number(row.rows_total),
  attempts: row.attempts,
  fileBytes: row.file_bytes === null ? null : Number(row.file_bytes),
  error: row.error,
  createdAt: date(row.created_at),
  startedAt: dateOrNull(row.started_at),
  finishedAt: dateOrNull(row.finished_at),
  expiresAt: dateOrNull(row.expires_at),
});

/** Data exports in PostgreSQL: reads on the pool, writes on the caller's transaction (so `finish` commits with the mails it causes). */
export class SqlDataExportRepository implements DataExportRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(e: DataExport, tx: Transaction): Promise<boolean> {
    const rows = await sqlOf(tx)
      .query(sql`INSERT INTO data_exports (id, organization_id, requested_by, recipient_emails, status, created_at)
       VALUES (${e.id}, ${e.organizationId}, ${e.requestedBy}, ${[...e.recipientEmails]}::text[], ${e.status}, ${e.createdAt})
       ON CONFLICT (organization_id) WHERE status IN ('queued', 'generating') DO NOTHING RETURNING id`);
    return rows.length > 0;
  }

  async find(organizationId: number, id: string): Promise<DataExport | null> {
    const [row] = await this.sql.query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM data_exports WHERE id = ${id}::uuid AND organization_id = ${organizationId}`,
    );
    return row ? toExport(row) : null;
  }

  async list(organizationId: number, limit: number): Promise<DataExport[]> {
    const rows = await this.sql.query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM data_exports WHERE organization_id = ${organizationId} ORDER BY created_at DESC, id LIMIT ${limit}`,
    );
    return rows.map(toExport);
  }

  async running(organizationId: number): Promise<DataExport | null> {
    const [row] = await this.sql.query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM data_exports WHERE organization_id = ${organizationId} AND status IN ('queued', 'generating')`,
    );
    return row ? toExport(row) : null;
  }

  async lastNotFailed(organizationId: number): Promise<DataExport | null> {
    const [row] = await this.sql.query<Row>(
      sql`SELECT ${raw(COLUMNS)} FROM data_exports WHERE organization_id = ${organizationId} AND status <> 'failed' ORDER BY created_at DESC LIMIT 1`,
    );
    return row ? toExport(row) : null;
  }

  async claimNext(owner: string, now: Date, leaseMs: number, tx: Transaction): Promise<DataExport | null> {
    const [row] = await sqlOf(tx).query<Row>(
      sql`UPDATE data_exports e SET status = 'generating', attempts = attempts + 1, lease_owner = ${owner}, lease_until = ${new Date(now.getTime() + leaseMs)},
              started_at = coalesce(started_at, ${now}), rows_done = 0
         FROM (SELECT id FROM data_exports WHERE status = 'queued' ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED) next
        WHERE e.id = next.id
        RETURNING ${raw(
          COLUMNS.split(',')
            .map((c) => `e.${c.trim()}`)
            .join(', '),
        )}`,
    );
    return row ? toExport(row) : null;
  }

  async progress(id: string, owner: string, rowsDone: number, rowsTotal: number, leaseUntil: Date, tx: Transaction): Promise<boolean> {
    const rows = await sqlOf(tx)
      .query(sql`UPDATE data_exports SET rows_done = ${rowsDone}, rows_total = ${rowsTotal}, lease_until = ${leaseUntil}
        WHERE id = ${id}::uuid AND lease_owner = ${owner} AND status = 'generating' RETURNING id`);
    return rows.length > 0;
  }

  async finish(
    id: string,
    owner: string,
    file: Omit<ExportFile, 'organizationId'> & { bytes: number },
    now: Date,
    expiresAt: Date,
    tx: Transaction,
  ): Promise<boolean> {
    const rows = await sqlOf(tx)
      .query(sql`UPDATE data_exports SET status = 'ready', file_path = ${file.path}, file_bytes = ${file.bytes}, download_token_hash = ${file.downloadTokenHash}, finished_at = ${now}, expires_at = ${expiresAt},
              rows_done = coalesce(rows_total, rows_done), lease_owner = NULL, lease_until = NULL
        WHERE id = ${id}::uuid AND lease_owner = ${owner} AND status = 'generating' RETURNING id`);
    return rows.length > 0;
  }

  async fail(id: string, owner: string, error: string, now: Date, tx: Transaction): Promise<boolean> {
    const rows = await sqlOf(tx)
      .query(sql`UPDATE data_exports SET status = 'failed', error = ${error.slice(0, 1000)}, finished_at = ${now}, lease_owner = NULL, lease_until = NULL
        WHERE id = ${id}::uuid AND lease_owner = ${owner} AND status = 'generating' RETURNING id`);
    return rows.length > 0;
  }

  async releaseLapsed(now: Date, decide: (e: DataExport) => 'queued' | 'failed', tx: Transaction): Promise<DataExport[]> {
    const on = sqlOf(tx);
    const lapsed = (
      await on.query<Row>(sql`SELECT ${raw(COLUMNS)} FROM data_exports WHERE status = 'generating' AND lease_until < ${now}`)
    ).map(toExport);
    const moved: DataExport[] = [];
    for (const e of lapsed) {
      const status = decide(e);
      const rows = await on.query<Row>(
        sql`UPDATE data_exports SET status = ${status}, lease_owner = NULL, lease_until = NULL,
                error = CASE WHEN ${status} = 'failed' THEN 'The export stopped ' || attempts || ' times before it was done' ELSE error END,
                finished_at = CASE WHEN ${status} = 'failed' THEN ${now}::timestamptz ELSE finished_at END
          WHERE id = ${e.id}::uuid AND status = 'generating' AND lease_until < ${now} RETURNING ${raw(COLUMNS)}`,
      );
      if (rows[0]) moved.push(toExport(rows[0]));
    }
    return moved;
  }

  async expireDue(now: Date, tx: Transaction): Promise<Array<{ id: string; path: string | null }>> {
    return sqlOf(tx).query<{ id: string; path: string | null }>(sql`UPDATE data_exports SET status = 'expired'
        WHERE status = 'ready' AND expires_at <= ${now} RETURNING id::text, file_path AS path`);
  }

  async nextDueAt(): Promise<Date | null> {
    // A lease lapses once past its end (releaseLapsed: lease_until < now): due a millisecond after.
    const [row] = await this.sql.query<{ due: Date | string | null }>(
      sql`SELECT LEAST((SELECT min(created_at) FROM data_exports WHERE status = 'queued'),
                       (SELECT min(lease_until) + interval '1 millisecond' FROM data_exports WHERE status = 'generating'),
                       (SELECT min(expires_at) FROM data_exports WHERE status = 'ready')) AS due`,
    );
    return row?.due ? new Date(row.due) : null;
  }

  async fileOf(id: string): Promise<ExportFile | null> {
    const [row] = await this.sql.query<{ organization_id: number; file_path: string | null; download_token_hash: string | null }>(
      sql`SELECT organization_id, file_path, download_token_hash FROM data_exports WHERE id = ${id}::uuid`,
    );
    return row?.file_path && row.download_token_hash
      ? { organizationId: row.organization_id, path: row.file_path, downloadTokenHash: row.download_token_hash }
      : null;
  }
}
