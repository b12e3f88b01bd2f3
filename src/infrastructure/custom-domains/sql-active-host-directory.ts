import type { ActiveHost, ActiveHostDirectory } from '../../application/custom-domains/ports';
import type { CustomDomainKind } from '../../domain/custom-domains/custom-domain';
import type { SqlRunner } from '../persistence/database';

/** Host routing's lookup: one prepared statement on the pool, answered from the claimed-hostname index. */
export class SqlActiveHostDirectory implements ActiveHostDirectory {
  constructor(private readonly pool: SqlRunner) {}

  async find(hostname: string): Promise<ActiveHost | null> {
    const [row] = await this.pool.query<{ organization_id: number; customer_id: number | null; kind: CustomDomainKind; status_page_id: string | null }>(
      `SELECT organization_id, customer_id, kind, status_page_id FROM custom_domains WHERE hostname = ? AND status = 'active'`,
      [hostname], { prepare: true },
    );
    if (!row) return null;
    return {
      hostname, organizationId: Number(row.organization_id), customerId: row.customer_id === null ? null : Number(row.customer_id),
      kind: row.kind, statusPageId: row.status_page_id,
    };
  }
}
