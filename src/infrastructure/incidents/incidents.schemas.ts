import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { AlertState } from '../../domain/incidents/alert-state';
import { Incident } from '../../domain/incidents/incident';
import { TimelineEntry } from '../../domain/incidents/timeline-entry';
import { columns } from '../persistence/columns';

const timestamp = { type: 'datetime', columnType: 'timestamptz' } as const;
const nullableTimestamp = { ...timestamp, nullable: true } as const;

export const IncidentSchema = new EntitySchema<Incident>({
  class: Incident,
  tableName: 'incidents',
  properties: columns<Incident>({
    id: { type: 'integer', primary: true, autoincrement: true },
    publicId: { type: 'uuid', unique: true },
    organizationId: { type: 'integer' },
    customerId: { type: 'integer' },
    monitorId: { type: new BigIntType('number') },
    origin: { type: 'string' },
    status: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'text', nullable: true },
    causeReasonCode: { type: 'string', nullable: true },
    causeMessage: { type: 'text', nullable: true },
    startedAt: timestamp,
    acknowledgedAt: nullableTimestamp,
    acknowledgedByUserId: { type: 'uuid', nullable: true },
    resolvedAt: nullableTimestamp,
    resolvedByUserId: { type: 'uuid', nullable: true },
    createdByUserId: { type: 'uuid', nullable: true },
    createdAt: timestamp,
    updatedAt: timestamp,
    version: { type: 'integer', version: true },
  }),
});

export const TimelineEntrySchema = new EntitySchema<TimelineEntry>({
  class: TimelineEntry,
  tableName: 'incident_timeline',
  properties: columns<TimelineEntry>({
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    incidentId: { type: 'integer' },
    kind: { type: 'string' },
    at: timestamp,
    location: { type: 'string', nullable: true },
    status: { type: 'string', nullable: true },
    reasonCode: { type: 'string', nullable: true },
    message: { type: 'text', nullable: true },
    userId: { type: 'uuid', nullable: true },
  }),
});

export const AlertStateSchema = new EntitySchema<AlertState>({
  class: AlertState,
  tableName: 'monitor_alert_states',
  properties: columns<AlertState>({
    monitorId: { type: new BigIntType('number'), primary: true, autoincrement: false },
    organizationId: { type: 'integer' },
    customerId: { type: 'integer' },
    checkIntervalSeconds: { type: 'integer' },
    openIncidentId: { type: 'integer', nullable: true },
    locations: { type: 'json' },
    lastReminderAt: nullableTimestamp,
    sslExpiry: { type: 'json', nullable: true },
    dnsbl: { type: 'json', nullable: true },
    updatedAt: timestamp,
  }),
});

export const incidentSchemas = [IncidentSchema, TimelineEntrySchema, AlertStateSchema];
