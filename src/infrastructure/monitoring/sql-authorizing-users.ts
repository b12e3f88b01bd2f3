import type { AuthorizingUsers } from '../../application/monitoring/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** An agent's authorizing user must still be an active user of the organization. */
export class SqlAuthorizingUsers implements AuthorizingUsers {
  constructor(private readonly sql: SqlRunner) {}

  async isActive(organizationId: number, userId: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(userId)) return false;
    const rows = await this.sql.query(sql`SELECT 1 FROM users WHERE id = ${userId} AND organization_id = ${organizationId} AND is_active`);
    return rows.length > 0;
  }
}
