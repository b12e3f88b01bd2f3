import type { VatValidation } from '../../domain/identity/vat-id';
import type { VatValidationStore } from '../../application/identity/ports';
import type { SqlRunner } from '../persistence/database';
import { sql } from '../persistence/sql';

/** The last validation on the organization's row, written only if vatId and countryCode are still those looked up. */
export class SqlVatValidationStore implements VatValidationStore {
  constructor(private readonly sql: SqlRunner) {}

  async record(organizationId: number, lookedUp: { vatId: string; countryCode: string | null }, v: VatValidation): Promise<boolean> {
    const rows = await this.sql
      .query(sql`UPDATE organizations SET vat_validation = ${JSON.stringify({ ...v, checkedAt: v.checkedAt.toISOString() })}::jsonb
        WHERE id = ${organizationId} AND vat_id IS NOT DISTINCT FROM ${lookedUp.vatId} AND country_code IS NOT DISTINCT FROM ${lookedUp.countryCode} RETURNING id`);
    return rows.length > 0;
  }
}
