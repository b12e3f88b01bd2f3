import type { AdministratorDirectory } from '../../application/identity/ports';
import type { NoticeRecipient } from '../../domain/identity/events';
import { sql } from '../persistence/sql';
import { sqlOf } from '../persistence/sql-transaction';
import type { Transaction } from '../../application/shared/transaction';

/** The organization's active administrators (none of a customer), in the order they were created. */
export class SqlAdministratorDirectory implements AdministratorDirectory {
  async activeAdministrators(organizationId: number, tx: Transaction): Promise<NoticeRecipient[]> {
    const rows = await sqlOf(tx).query<{ id: string; email: string }>(
      sql`SELECT id::text, email FROM users
           WHERE organization_id = ${organizationId} AND role = 'admin' AND is_active AND customer_id IS NULL ORDER BY created_at, id`,
    );
    return rows.map((row) => ({ userId: row.id, email: row.email }));
  }
}
