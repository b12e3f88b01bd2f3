import type { VatValidation } from '../../domain/identity/vat-id';
import type { VatValidationStore } from '../../application/identity/ports';
import type { SqlRunner } from '../persistence/database';

/** The last validation on the organization's row, written only if vatId and countryCode are still those looked up. */
export class SqlVatValidationStore implements VatValidationStore {
  constructor(private readonly sql: SqlRunner) {}

  async record(organizationId: number, lookedUp: { vatId: string; countryCode: string | null }, v: VatValidation): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE organizations SET vat_validation = ?::jsonb
        WHERE id = ? AND vat_id IS NOT DISTINCT FROM ? AND country_code IS NOT DISTINCT FROM ? RETURNING id`,
      [JSON.stringify({ ...v, checkedAt: v.checkedAt.toISOString() }), organizationId, lookedUp.vatId, lookedUp.countryCode],
    );
    return rows.length > 0;
  }
}
