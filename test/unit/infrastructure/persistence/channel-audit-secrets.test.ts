import { expect } from 'chai';
import { NOTIFIERS } from '../../../../src/domain/notifications/notifiers';
import { configRedactions } from '../../../../src/domain/notifications/notifiers/export-redaction';
import { NOTIFICATION_CHANNELS_AUDIT } from '../../../../src/infrastructure/persistence/migrations/20270302090000-channel-audit-secrets';

/**
 * The audit log's trigger on notification_channels redacts a fixed list of config fields, written
 * by a migration (a database trigger cannot read the descriptors). A notifier whose secret, URL or
 * headers field is not on that list fails here: it needs a migration re-creating the trigger
 * (auditTriggerSql) with the field, and this test pointed at that migration's list (the newest:
 * 20270302090000-channel-audit-secrets).
 */
describe('the audit log redacts every config field the descriptors call secret', () => {
  it("has each field the data export redacts among the notification_channels trigger's secrets", () => {
    for (const { name } of configRedactions(NOTIFIERS)) expect(NOTIFICATION_CHANNELS_AUDIT.secrets, name).to.include(`config.${name}`);
  });

  it('keeps every secret the trigger redacted before, and the credentials of the notifiers to come', () => {
    expect(NOTIFICATION_CHANNELS_AUDIT).to.deep.include({ table: 'notification_channels', resourceType: 'notificationChannel' });
    expect(NOTIFICATION_CHANNELS_AUDIT.secrets).to.include.members([
      'secret_ciphertext',
      'config.url',
      'config.headers',
      'config.password',
      'config.token',
      'config.apiKey',
      'config.routingKey',
      'config.botToken',
      'config.accessToken',
      'config.userKey',
      'config.appToken',
      'config.apiToken',
    ]);
  });
});
