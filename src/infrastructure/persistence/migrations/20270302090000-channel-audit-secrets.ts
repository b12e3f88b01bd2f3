import { Migration } from '@mikro-orm/migrations';
import { AUDITED_TABLES, auditTriggerSql, type AuditedTable } from './20261228090000-audit-log.tables';

const BEFORE = AUDITED_TABLES.find((t) => t.table === 'notification_channels')!;

/**
 * The notification_channels audit trigger as of this migration: the credentials of the notifiers
 * that carry one in a field of its own (PagerDuty's routingKey; botToken, accessToken, userKey,
 * appToken and apiToken for the chat and push services that take a token rather than a secret URL;
 * Telegram's apiUrl, a URL of one's own server, as every URL is)
 * are redacted, as the URL, headers, password, token and apiKey already were. The newest list: the
 * test that every descriptor's secret is redacted reads this one.
 */
export const NOTIFICATION_CHANNELS_AUDIT: AuditedTable = {
  ...BEFORE,
  secrets: [
    ...BEFORE.secrets!,
    'config.routingKey',
    'config.botToken',
    'config.accessToken',
    'config.userKey',
    'config.appToken',
    'config.apiToken',
    'config.apiUrl',
  ],
};

/** Re-creates the notification_channels audit trigger with NOTIFICATION_CHANNELS_AUDIT's secrets. */
export class Migration20270302090000ChannelAuditSecrets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`DROP TRIGGER audit ON notification_channels; ${auditTriggerSql(NOTIFICATION_CHANNELS_AUDIT)}`);
  }

  override async down(): Promise<void> {
    this.addSql(`DROP TRIGGER audit ON notification_channels; ${auditTriggerSql(BEFORE)}`);
  }
}
