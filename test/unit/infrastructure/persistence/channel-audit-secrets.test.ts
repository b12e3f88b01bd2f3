import { expect } from 'chai';
import { NOTIFIERS } from '../../../../src/domain/notifications/notifiers';
import { configRedactions } from '../../../../src/domain/notifications/notifiers/export-redaction';
import { AUDITED_TABLES } from '../../../../src/infrastructure/persistence/migrations/20261228090000-audit-log.tables';

/**
 * The audit log's trigger on notification_channels redacts a fixed list of config fields, written
 * by a migration (a database trigger cannot read the descriptors). A notifier whose secret, URL or
 * headers field is not on that list fails here: it needs a migration re-creating the trigger
 * (auditTriggerSql) with the field, and this test pointed at that migration's list.
 */
describe('the audit log redacts every config field the descriptors call secret', () => {
  it("has each field the data export redacts among the notification_channels trigger's secrets", () => {
    const audited = AUDITED_TABLES.find((t) => t.table === 'notification_channels')!;
    for (const { name } of configRedactions(NOTIFIERS)) expect(audited.secrets, name).to.include(`config.${name}`);
  });
});
