import { Migration } from '@mikro-orm/migrations';

/**
 * alertRetryInterval: seconds before a confirmation check after a failure that has not yet reached
 * alertConsecutiveChecks (or a recovery the location threshold has not decided), on the customer's
 * package terms and on each monitor (copied from its customer when created, as the other alert
 * settings are). Default 20, floor 10.
 */
export class Migration20261231130000AlertRetryInterval extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE customers ADD COLUMN alert_retry_interval integer NOT NULL DEFAULT 20
        CONSTRAINT customers_alert_retry_interval_range CHECK (alert_retry_interval BETWEEN 10 AND 3600);
      ALTER TABLE monitors ADD COLUMN alert_retry_interval integer NOT NULL DEFAULT 20
        CONSTRAINT monitors_alert_retry_interval_range CHECK (alert_retry_interval BETWEEN 10 AND 3600);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      ALTER TABLE monitors DROP COLUMN alert_retry_interval;
      ALTER TABLE customers DROP COLUMN alert_retry_interval;
    `);
  }
}
