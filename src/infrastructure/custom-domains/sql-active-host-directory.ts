import type { ActiveHost, ActiveHostDirectory } from '../../application/custom-domains/ports';
import type { CustomDomainKind } from '../../domain/custom-domains/custom-domain';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** Host routing's lookup: one prepared statement on the pool, answered from the claimed-hostname index. */
export class SqlActiveHostDirectory implements ActiveHostDirectory {
  constructor(private readonly pool: SqlRunner) {}

  async find(hostname: string): Promise<ActiveHost | null> {
    const [row] = await this.pool.query<{
      organization_id: number;
      customer_id: number | null;
      kind: CustomDomainKind;
      status_page_id: number | null;
      page_public_id: string | null;
    }>(
      sql`SELECT d.organization_id, d.customer_id, d.kind, d.status_page_id, p.public_id AS page_public_id
         FROM custom_domains d LEFT JOIN status_pages p ON p.id = d.status_page_id
        WHERE d.hostname = ${hostname} AND d.status = 'active'`,
      { prepare: true },
    );
    if (!row) return null;
    return {
      hostname,
      organizationId: Number(row.organization_id),
      customerId: row.customer_id === null ? null : Number(row.customer_id),
      kind: row.kind,
      statusPage: row.status_page_id === null ? null : { publicId: String(row.page_public_id), rowId: Number(row.status_page_id) },
    };
  }
}
