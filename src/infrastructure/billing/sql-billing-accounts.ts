import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { BillingAccount, BillingAccounts, Charge } from '../../application/billing/ports';
import type { Discount } from '../../domain/billing/discount';
import type { MandateStatus } from '../../domain/billing/mandate';
import type { SqlRow, SqlRunner } from '../persistence/database';
import { CHARGE_SELECT, chargeOf, type ChargeRow } from './offline-payment-provider';
import { raw, sql } from '../persistence/sql';

/** billing_accounts (one row per organization, made on first write) and the organization's autoQuotaUpgrade. */
export class SqlBillingAccounts implements BillingAccounts {
  constructor(private readonly sql: SqlRunner) {}

  async exists(organizationId: number): Promise<boolean> {
    const rows = await this.sql.query(sql`SELECT 1 FROM organizations WHERE id = ${organizationId} AND status <> 'deleted'`);
    return rows.length > 0;
  }

  get(organizationId: number): Promise<BillingAccount> {
    return this.account(organizationId, this.sql);
  }

  getIn(organizationId: number, tx: Transaction): Promise<BillingAccount> {
    return this.account(organizationId, sqlOf(tx));
  }

  private async account(organizationId: number, on: SqlRunner): Promise<BillingAccount> {
    const [row] =
      await on.query<SqlRow>(sql`SELECT o.id, o.auto_quota_upgrade, b.mandate_id, b.mandate_status, b.discount_percent, b.discount_code, b.discount_applied_at
       FROM organizations o LEFT JOIN billing_accounts b ON b.organization_id = o.id WHERE o.id = ${organizationId}`);
    return {
      organizationId,
      autoQuotaUpgrade: row?.auto_quota_upgrade === true,
      mandateId: row?.mandate_id ?? null,
      mandateStatus: (row?.mandate_status ?? null) as MandateStatus | null,
      discount: row?.discount_percent
        ? { percent: row.discount_percent, code: row.discount_code, appliedAt: new Date(row.discount_applied_at) }
        : null,
    };
  }

  async setMandate(organizationId: number, mandateId: string, status: MandateStatus, at: Date, tx: Transaction): Promise<void> {
    await sqlOf(tx)
      .query(sql`INSERT INTO billing_accounts (organization_id, mandate_id, mandate_status, updated_at) VALUES (${organizationId}, ${mandateId}, ${status}, ${at})
       ON CONFLICT (organization_id) DO UPDATE SET mandate_id = EXCLUDED.mandate_id, mandate_status = EXCLUDED.mandate_status, updated_at = EXCLUDED.updated_at`);
  }

  async setDiscount(organizationId: number, discount: Discount | null, at: Date, tx: Transaction): Promise<void> {
    await sqlOf(tx)
      .query(sql`INSERT INTO billing_accounts (organization_id, discount_percent, discount_code, discount_applied_at, updated_at) VALUES (${organizationId}, ${discount?.percent ?? null}, ${discount?.code ?? null}, ${discount?.appliedAt ?? null}, ${at})
       ON CONFLICT (organization_id) DO UPDATE SET discount_percent = EXCLUDED.discount_percent, discount_code = EXCLUDED.discount_code,
         discount_applied_at = EXCLUDED.discount_applied_at, updated_at = EXCLUDED.updated_at`);
  }

  async setAutoQuotaUpgrade(organizationId: number, on: boolean, at: Date, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(
      sql`UPDATE organizations SET auto_quota_upgrade = ${on}, updated_at = ${at}, version = version + 1 WHERE id = ${organizationId} AND auto_quota_upgrade <> ${on}`,
    );
  }

  async charges(organizationId: number, limit: number): Promise<Charge[]> {
    const rows = await this.sql.query<ChargeRow>(
      sql`${raw(CHARGE_SELECT)} WHERE organization_id = ${organizationId} ORDER BY created_at DESC, id LIMIT ${limit}`,
    );
    return rows.map(chargeOf);
  }
}
