import type { OrganizationLook, OrganizationLooks } from '../../application/custom-domains/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** The white-label look of an organization, read from its row (set through PATCH /api/organization). */
export class SqlOrganizationLooks implements OrganizationLooks {
  constructor(private readonly pool: SqlRunner) {}

  async find(organizationId: number): Promise<OrganizationLook | null> {
    const [row] = await this.pool.query<{ name: string; accent_color: string | null; logo: string | null }>(
      sql`SELECT name, accent_color, logo FROM organizations WHERE id = ${organizationId} AND status <> 'deleted'`,
      { prepare: true },
    );
    return row ? { name: row.name, accentColor: row.accent_color, logo: row.logo } : null;
  }
}
