import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { NotificationChannel } from '../../domain/notifications/notification-channel';
import { columns } from '../persistence/columns';

export const NotificationChannelSchema = new EntitySchema<NotificationChannel>({
  class: NotificationChannel,
  tableName: 'notification_channels',
  properties: columns<NotificationChannel>({
    id: { type: 'integer', primary: true, autoincrement: true },
    publicId: { type: 'uuid', unique: true },
    organizationId: { type: 'integer' },
    customerId: { type: 'integer', nullable: true },
    monitorId: { type: new BigIntType('number'), nullable: true },
    sourceChannelId: { type: 'integer', nullable: true },
    key: { type: 'string', nullable: true },
    name: { type: 'string' },
    type: { type: 'string' },
    config: { type: 'json' },
    events: { type: 'string[]', columnType: 'text[]' },
    enabled: { type: 'boolean' },
    secretCiphertext: { type: 'string', nullable: true },
    isDefault: { type: 'boolean' },
    // health: written by the delivery ledger's statements; the domain never changes them, so a flush never writes them back
    consecutiveFailures: { type: 'integer' },
    lastFailureAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    lastFailureReason: { type: 'string', nullable: true },
    lastSuccessAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    failingSince: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz' },
    updatedAt: { type: 'datetime', columnType: 'timestamptz' },
    version: { type: 'integer', version: true },
  }),
});

export const notificationSchemas = [NotificationChannelSchema];
