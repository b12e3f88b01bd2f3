import { Migration } from '@mikro-orm/migrations';
import { auditTriggerSql } from './20261228090000-audit-log.tables';

/**
 * Changes to locations and probe keys are audited like other admin actions (created, renamed,
 * deleted; a key issued or revoked): the audit trigger on both tables. A location is named by its
 * code; a key by its public id, its digest redacted and its last use (noted by the probe API) not
 * a change. Platform locations have no organization: their entries go to the acting admin's.
 */
export class Migration20270110093000LocationsAudit extends Migration {
  override async up(): Promise<void> {
    this.addSql(auditTriggerSql({ table: 'locations', resourceType: 'location', idColumn: 'code', customerColumn: '-' }));
    this.addSql(
      auditTriggerSql({
        table: 'probe_keys',
        resourceType: 'probeKey',
        customerColumn: '-',
        secrets: ['secret_digest'],
        ignored: ['last_used_at'],
      }),
    );
  }

  override async down(): Promise<void> {
    this.addSql('DROP TRIGGER audit ON probe_keys; DROP TRIGGER audit ON locations;');
  }
}
