import type { AdministratorDirectory } from '../../application/identity/ports';
import type { NoticeRecipient } from '../../domain/identity/events';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** The organization's active administrators (none of a customer), in the order they were created. */
export class SqlAdministratorDirectory implements AdministratorDirectory {
  constructor(private readonly sql: SqlRunner) {}

  async activeAdministrators(organizationId: number): Promise<NoticeRecipient[]> {
    const rows = await this.sql.query<{ id: string; email: string }>(
      sql`SELECT id::text, email FROM users
           WHERE organization_id = ${organizationId} AND role = 'admin' AND is_active AND customer_id IS NULL ORDER BY created_at, id`,
    );
    return rows.map((row) => ({ userId: row.id, email: row.email }));
  }
}
