import type { LocationCatalogue } from '../../application/locations/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/**
 * The codes an organization's monitors may list: the configured catalogue (MONITOR_LOCATIONS, in
 * its order), then platform rows, then the organization's private rows, each by code.
 */
export class SqlLocationCatalogue implements LocationCatalogue {
  constructor(
    private readonly sql: SqlRunner,
    private readonly configured: readonly string[],
  ) {}

  async codesFor(organizationId: number): Promise<string[]> {
    const rows = await this.sql.query<{ code: string }>(
      sql`SELECT code FROM locations WHERE organization_id IS NULL OR organization_id = ${organizationId}
           ORDER BY organization_id NULLS FIRST, code`,
    );
    return [...this.configured, ...rows.map((row) => row.code).filter((code) => !this.configured.includes(code))];
  }

  async privateCodesFor(organizationId: number): Promise<string[]> {
    const rows = await this.sql.query<{ code: string }>(
      sql`SELECT code FROM locations WHERE organization_id = ${organizationId} ORDER BY code`,
    );
    return rows.map((row) => row.code);
  }
}
