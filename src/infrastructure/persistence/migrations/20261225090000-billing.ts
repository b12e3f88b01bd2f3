import { Migration } from '@mikro-orm/migrations';

/**
 * Billing. billing_accounts: the organization's mandate as last read from the payment provider and
 * its discount. billing_mandates and billing_charges belong to the in-process payment provider:
 * the records an operator bills from offline; the UNIQUE idempotency key is what makes a charge
 * recorded once however often the same move is retried.
 */
export class Migration20261225090000Billing extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      CREATE TABLE billing_accounts (
        organization_id integer PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        mandate_id text,
        mandate_status text CHECK (mandate_status IN ('pending', 'active', 'failed')),
        discount_percent smallint CHECK (discount_percent BETWEEN 1 AND 100),
        discount_code text,
        discount_applied_at timestamptz,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE billing_mandates (
        id uuid PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('pending', 'active', 'failed')),
        return_url text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX billing_mandates_organization ON billing_mandates (organization_id);
      CREATE TABLE billing_charges (
        id uuid PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        amount_cents integer NOT NULL CHECK (amount_cents >= 0),
        currency text NOT NULL,
        description text NOT NULL,
        idempotency_key text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX billing_charges_organization ON billing_charges (organization_id, created_at DESC);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('DROP TABLE billing_charges; DROP TABLE billing_mandates; DROP TABLE billing_accounts;');
  }
}
