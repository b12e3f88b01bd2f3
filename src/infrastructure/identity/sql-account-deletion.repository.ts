import { AccountDeletionRequest, type AccountDeletionStatus } from '../../domain/identity/account-deletion';
import type { AccountDeletionRepository } from '../../application/identity/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRow, SqlRunner } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf, optionalDateOf } from '../persistence/row';
import { sqlOf } from '../persistence/sql-transaction';
import { raw, sql } from '../persistence/sql';
import { uniqueInsert } from './unique-index';

const COLUMNS = raw('id, user_id, organization_id, status, requested_at, effective_at, withdrawn_at, completed_at, version');

type Stamp = Date | string;

/** A stored request (no constructor: the row was valid when written). */
function requestOf(row: SqlRow): AccountDeletionRequest {
  return Object.assign(Object.create(AccountDeletionRequest.prototype) as AccountDeletionRequest, {
    id: row.id as string,
    userId: row.user_id as string,
    organizationId: Number(row.organization_id),
    status: row.status as AccountDeletionStatus,
    requestedAt: dateOf(row.requested_at as Stamp),
    effectiveAt: dateOf(row.effective_at as Stamp),
    withdrawnAt: optionalDateOf(row.withdrawn_at as Stamp | null),
    completedAt: optionalDateOf(row.completed_at as Stamp | null),
    version: Number(row.version),
  });
}

/** Account deletion requests in the `sql` kit; a save names the version it read (a lost race is `conflict`). */
export class SqlAccountDeletionRepository implements AccountDeletionRepository {
  constructor(private readonly sql: SqlRunner) {}

  findPendingForUserIn(userId: string, tx: Transaction): Promise<AccountDeletionRequest | null> {
    return this.findPendingForUser(userId, sqlOf(tx));
  }

  async findPendingForUser(userId: string, on: SqlRunner = this.sql): Promise<AccountDeletionRequest | null> {
    const [row] = await on.query(
      sql`SELECT ${COLUMNS} FROM account_deletion_requests WHERE user_id = ${userId} AND status = 'requested' LIMIT 1`,
    );
    return row ? requestOf(row) : null;
  }

  async findDue(now: Date, limit: number): Promise<AccountDeletionRequest[]> {
    const rows = await this.sql.query(
      sql`SELECT ${COLUMNS} FROM account_deletion_requests WHERE status = 'requested' AND effective_at <= ${now} LIMIT ${limit}`,
    );
    return rows.map(requestOf);
  }

  /** A second pending request for the user, made at the same moment: the loser may retry (and gets the pending one). */
  async add(request: AccountDeletionRequest, tx: Transaction): Promise<void> {
    const r = request;
    await uniqueInsert('account_deletion_one_pending', 'conflict', () =>
      sqlOf(tx).query(
        sql`INSERT INTO account_deletion_requests (${COLUMNS})
        VALUES (${r.id}, ${r.userId}, ${r.organizationId}, ${r.status}, ${r.requestedAt}, ${r.effectiveAt}, ${r.withdrawnAt},
          ${r.completedAt}, ${r.version})`,
      ),
    );
  }

  async save(request: AccountDeletionRequest, tx: Transaction): Promise<void> {
    const r = request;
    const rows = await racing(() =>
      sqlOf(tx).query(
        sql`UPDATE account_deletion_requests SET status = ${r.status}, withdrawn_at = ${r.withdrawnAt}, completed_at = ${r.completedAt},
          version = version + 1
        WHERE id = ${r.id} AND version = ${r.version} RETURNING version`,
      ),
    );
    versionSaved(request, rows);
  }
}
