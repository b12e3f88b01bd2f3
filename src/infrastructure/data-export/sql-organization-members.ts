import type { OrganizationMembers } from '../../application/data-export/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** The organization's active members and their addresses. */
export class SqlOrganizationMembers implements OrganizationMembers {
  constructor(private readonly sql: SqlRunner) {}

  list(organizationId: number): Promise<Array<{ userId: string; email: string }>> {
    return this.sql.query<{ userId: string; email: string }>(
      sql`SELECT id::text AS "userId", email FROM users WHERE organization_id = ${organizationId} AND is_active ORDER BY email`,
    );
  }
}
