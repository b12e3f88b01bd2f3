import { Migration } from '@mikro-orm/migrations';

/**
 * `monitors.kind` loses its check constraint: the kinds are the registry's (`website` and the
 * descriptors in src/domain/monitoring/kinds), which every write path checks before it stores a
 * monitor (the routes exist per registered kind only), so a kind added to the registry needs no
 * migration. A migration cannot follow the registry: it is frozen when written.
 */
export class Migration20270301090000MonitorKindsRegistry extends Migration {
  override async up(): Promise<void> {
    this.addSql(`ALTER TABLE monitors DROP CONSTRAINT IF EXISTS monitors_kind_check;`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `ALTER TABLE monitors ADD CONSTRAINT monitors_kind_check CHECK (kind IN ('website', 'dns', 'icmp', 'tcp', 'smtp', 'ssh', 'ftp', 'imap-pop'));`,
    );
  }
}
