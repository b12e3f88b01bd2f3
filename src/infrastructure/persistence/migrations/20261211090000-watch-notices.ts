import { Migration } from '@mikro-orm/migrations';

/**
 * What the watch sweep last announced about a customer domain (its expiry band) or IP (listed or
 * clean), and when: the state its events are decided against. The lastNotified* columns beside
 * them are set by the delivery ledger only, after a delivery succeeded.
 */
export class Migration20261211090000WatchNotices extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      ALTER TABLE customer_domain_expiry
        ADD COLUMN announced_band text CHECK (announced_band IN ('ok', 'warning', 'error', 'expired')),
        ADD COLUMN announced_at timestamptz;
      ALTER TABLE customer_ip_dnsbl
        ADD COLUMN announced_listed boolean,
        ADD COLUMN announced_at timestamptz;
    `);
  }
}
