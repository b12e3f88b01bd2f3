import type { AuthorizingUsers } from '../../application/monitoring/ports';
import type { SqlRunner } from '../persistence/database';

/** An agent's authorizing user must still be an active user of the organization. */
export class SqlAuthorizingUsers implements AuthorizingUsers {
  constructor(private readonly sql: SqlRunner) {}

  async isActive(organizationId: number, userId: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(userId)) return false;
    const rows = await this.sql.query('SELECT 1 FROM users WHERE id = ? AND organization_id = ? AND is_active', [userId, organizationId]);
    return rows.length > 0;
  }
}
