import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import type { Charge, ChargeRequest, PaymentProvider } from '../../application/billing/ports';
import type { Clock } from '../../application/shared/clock';
import type { IdGenerator } from '../../application/shared/id-generator';
import type { MandateStatus } from '../../domain/billing/mandate';
import type { SqlRunner } from '../persistence/database';
import { raw, sql } from '../persistence/sql';

/**
 * The payment provider of an operator who bills offline: nothing leaves the service. A mandate is
 * the organization's agreement to be invoiced; there is no third-party page to visit, so the
 * browser goes straight back to the return URL and the mandate is active from the start. The
 * operator revokes one by setting billing_mandates.status to 'failed' (reconcile then carries it
 * to the organization). A charge is a row in billing_charges that the operator invoices from;
 * its idempotency key is UNIQUE, so a retried move records it once. Rows are written on the
 * caller's unit of work, so a charge commits with the change that caused it.
 */
export class OfflinePaymentProvider implements PaymentProvider {
  constructor(
    private readonly sql: SqlRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async startMandate(organizationId: number, returnUrl: string, tx: Transaction): Promise<{ mandateId: string; redirectUrl: string }> {
    const mandateId = this.ids.uuid();
    const now = this.clock.now();
    await sqlOf(tx).query(
      sql`INSERT INTO billing_mandates (id, organization_id, status, return_url, created_at, updated_at) VALUES (${mandateId}, ${organizationId}, 'active', ${returnUrl}, ${now}, ${now})`,
    );
    const redirect = new URL(returnUrl);
    redirect.searchParams.set('mandateId', mandateId);
    return { mandateId, redirectUrl: redirect.toString() };
  }

  async mandateStatus(mandateId: string): Promise<{ organizationId: number; status: MandateStatus } | null> {
    if (!/^[0-9a-f-]{36}$/i.test(mandateId)) return null;
    const [row] = await this.sql.query<{ organization_id: number; status: MandateStatus }>(
      sql`SELECT organization_id, status FROM billing_mandates WHERE id = ${mandateId}`,
    );
    return row ? { organizationId: row.organization_id, status: row.status } : null;
  }

  async charge(organizationId: number, request: ChargeRequest, tx: Transaction): Promise<Charge> {
    await sqlOf(tx)
      .query(sql`INSERT INTO billing_charges (id, organization_id, amount_cents, currency, description, idempotency_key, created_at)
       VALUES (${this.ids.uuid()}, ${organizationId}, ${request.amountCents}, ${request.currency}, ${request.description}, ${request.idempotencyKey}, ${this.clock.now()}) ON CONFLICT (idempotency_key) DO NOTHING`);
    const [row] = await sqlOf(tx).query<ChargeRow>(sql`${raw(CHARGE_SELECT)} WHERE idempotency_key = ${request.idempotencyKey}`);
    return chargeOf(row!);
  }
}

export interface ChargeRow {
  id: string;
  organization_id: number;
  amount_cents: number;
  currency: string;
  description: string;
  idempotency_key: string;
  created_at: Date;
}

export const CHARGE_SELECT =
  'SELECT id, organization_id, amount_cents, currency, description, idempotency_key, created_at FROM billing_charges';

export function chargeOf(row: ChargeRow): Charge {
  return {
    id: row.id,
    organizationId: row.organization_id,
    amountCents: row.amount_cents,
    currency: row.currency,
    description: row.description,
    idempotencyKey: row.idempotency_key,
    createdAt: new Date(row.created_at),
  };
}
