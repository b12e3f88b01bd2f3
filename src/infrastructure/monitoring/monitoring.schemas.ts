import { ArrayType, BigIntType, EntitySchema } from '@mikro-orm/core';
import { Monitor } from '../../domain/monitoring/monitor';
import { Tag } from '../../domain/monitoring/tag';
import { ChangeRequest } from '../../domain/monitoring/change-request';
import { columns } from '../persistence/columns';

const timestamps = {
  createdAt: { type: 'datetime', columnType: 'timestamptz' },
  updatedAt: { type: 'datetime', columnType: 'timestamptz' },
} as const;

export const MonitorSchema = new EntitySchema<Monitor>({
  class: Monitor,
  tableName: 'monitors',
  properties: columns<Monitor>({
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    publicId: { type: 'uuid', unique: true },
    organizationId: { type: 'integer' },
    customerId: { type: 'integer' },
    kind: { type: 'string' },
    monitoringType: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string' },
    managementType: { type: 'string' },
    key: { type: 'string', nullable: true },
    checkInterval: { type: 'integer' },
    timeoutSeconds: { type: 'integer' },
    locations: { type: 'string[]', columnType: 'text[]' },
    url: { type: 'string', nullable: true },
    hostname: { type: 'string', nullable: true },
    port: { type: 'integer', nullable: true },
    checkMode: { type: 'string', nullable: true },
    connectHost: { type: 'string', nullable: true },
    connectPort: { type: 'integer', nullable: true },
    connectTlsInsecure: { type: 'boolean' },
    config: { type: 'json' },
    credentialsCiphertext: { type: 'string', nullable: true },
    heartbeatToken: { type: 'string', nullable: true, unique: true },
    lastHeartbeatAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    alertConsecutiveChecks: { type: 'integer' },
    alertRetryInterval: { type: 'integer' },
    alertLocationThreshold: { type: 'decimal', columnType: 'numeric(3,2)' },
    alertLocationThresholdCount: { type: 'integer' },
    alertReminderInterval: { type: 'integer' },
    sslExpiryReminderInterval: { type: 'integer', nullable: true },
    dnsblReminderInterval: { type: 'integer', nullable: true },
    createdByUserId: { type: 'uuid', nullable: true },
    dependsOnIds: { type: new ArrayType<number>((value) => Number(value)), columnType: 'bigint[]', fieldName: 'depends_on' },
    ...timestamps,
    version: { type: 'integer', version: true },
  }),
});

export const TagSchema = new EntitySchema<Tag>({
  class: Tag,
  tableName: 'tags',
  properties: columns<Tag>({
    id: { type: 'integer', primary: true, autoincrement: true },
    publicId: { type: 'uuid', unique: true },
    organizationId: { type: 'integer' },
    customerId: { type: 'integer', nullable: true },
    name: { type: 'string' },
    color: { type: 'string' },
    ...timestamps,
  }),
});

export const ChangeRequestSchema = new EntitySchema<ChangeRequest>({
  class: ChangeRequest,
  tableName: 'change_requests',
  properties: columns<ChangeRequest>({
    id: { type: 'integer', primary: true, autoincrement: true },
    publicId: { type: 'uuid', unique: true },
    organizationId: { type: 'integer' },
    customerId: { type: 'integer' },
    monitorId: { type: new BigIntType('number'), nullable: true },
    monitorPublicId: { type: 'uuid' },
    monitorKind: { type: 'string' },
    action: { type: 'string' },
    changes: { type: 'json' },
    note: { type: 'string', nullable: true },
    status: { type: 'string' },
    requestedByUserId: { type: 'uuid', nullable: true },
    decidedByUserId: { type: 'uuid', nullable: true },
    decisionNote: { type: 'string', nullable: true },
    decidedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    ...timestamps,
    version: { type: 'integer', version: true },
  }),
});

export const monitoringSchemas = [MonitorSchema, TagSchema, ChangeRequestSchema];
