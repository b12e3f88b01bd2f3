import { Migration } from '@mikro-orm/migrations';

/** The organization's last VAT validation (VIES): valid, the registered name and address, when. */
export class Migration20261213110000VatValidation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`ALTER TABLE organizations ADD COLUMN vat_validation jsonb;`);
  }
}
