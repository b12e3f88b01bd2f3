import { z } from 'zod';
import 'zod-openapi';
import { CHANGE_REQUEST_ACTIONS, CHANGE_REQUEST_STATUSES } from '../../../domain/monitoring/change-request';
import { CHECK_MODES, MANAGEMENT_TYPES, MONITOR_KINDS, MONITOR_STATUSES } from '../../../domain/monitoring/monitor-kind';
import { CHECK_TOGGLES } from '../../../domain/monitoring/check-config';
import { allKindFields, type KindField } from '../../../domain/monitoring/kinds';
import { ChainStepSchema } from './api-chain.schemas';

const Timestamp = z.iso.datetime();

/** A kind's own setting as a monitor returns it (only on monitors of the kinds that have it). */
function settingOutput(field: KindField): z.ZodType {
  const { input } = field;
  if (input.kind === 'list') return z.array(z.string()).optional();
  return input.kind === 'string' && input.nullable ? z.string().nullable().optional() : z.string().optional();
}

export const TagSchema = z
  .object({
    id: z.number().int(),
    publicId: z.uuid(),
    organizationId: z.number().int(),
    customerId: z.number().int().nullable().meta({ description: 'null: an organization-wide tag' }),
    name: z.string(),
    color: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Tag' });

export const CheckConfigSchema = z
  .object({
    ...Object.fromEntries(CHECK_TOGGLES.map((t) => [t, z.boolean()])),
    minPageSize: z.number().int().nullable(),
    maxPageSize: z.number().int().nullable(),
    sslNoticeDays: z.number().int(),
  })
  .meta({ id: 'WebsiteCheckConfig' });

export const CurrentStateSchema = z
  .object({
    status: z.enum(['up', 'down', 'unknown', 'dependencyDown']).meta({
      description:
        'up; down while its automatic incident is open; unknown when it cannot be said (see reason); dependencyDown while it ' +
        'fails but a monitor it depends on is down: no incident of its own, the root (dependencyRoot) has the incident',
    }),
    reason: z
      .enum(['silentLocations', 'noResults', 'paused'])
      .nullable()
      .meta({
        description:
          'Why it is unknown (null otherwise): silentLocations when fewer of its locations have a live check process ' +
          '(worker or probe) than alertLocationThreshold needs: its results cannot decide it, nothing opens or resolves ' +
          '(an open incident stays open) and the organization gets an audit entry monitor.stateUnknown; noResults before ' +
          'its first result; paused',
      }),
    silentLocations: z.array(z.string()).meta({
      description: 'Its locations no live check process serves, noticed within seconds; they do not vote (even while enough others decide)',
    }),
    unknownSince: Timestamp.nullable().meta({ description: 'Since when it is unknown for its silent locations' }),
    dependencyRoot: z
      .uuid()
      .optional()
      .meta({ description: 'Only with dependencyDown: the publicId of the root monitor whose incident stands for this one' }),
  })
  .meta({ id: 'MonitorCurrentState', description: "What the monitor is now (read live, not part of the monitor's settings)" });

const commonSchema = {
  id: z.number().int(),
  publicId: z.uuid(),
  key: z.string().nullable().meta({ description: 'The stable key the client gave the monitor, null when none' }),
  organizationId: z.number().int(),
  customerId: z.number().int(),
  customerPublicId: z.uuid(),
  name: z.string(),
  monitoringType: z.string(),
  status: z.enum(MONITOR_STATUSES),
  managementType: z.enum(MANAGEMENT_TYPES),
  checkInterval: z.number().int(),
  timeoutSeconds: z.number().int(),
  locations: z.array(z.string()),
  alertConsecutiveChecks: z.number().int(),
  alertRetryInterval: z.number().int(),
  alertLocationThreshold: z.string(),
  alertLocationThresholdCount: z.number().int(),
  alertReminderInterval: z.number().int(),
  sslExpiryReminderInterval: z.number().int().nullable(),
  dnsblReminderInterval: z.number().int().nullable(),
  dependsOn: z.array(z.uuid()).meta({ description: 'The publicIds of the monitors it depends on (see dependsOn in create and update)' }),
  tags: z.array(z.object({ id: z.number().int(), publicId: z.uuid(), name: z.string(), color: z.string() })),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  currentState: CurrentStateSchema,
};

export const WebsiteSchema = z
  .object({
    ...commonSchema,
    url: z.string().nullable(),
    method: z.string(),
    headers: z.record(z.string(), z.string()),
    body: z.string().nullable(),
    expectedStatusCodes: z.array(z.number().int()),
    keyword: z.string().nullable(),
    keywordMode: z.string(),
    keywordCaseSensitive: z.boolean(),
    responseTimeThreshold: z.number().int().nullable(),
    followRedirects: z.boolean(),
    script: z.string().nullable(),
    steps: z.array(ChainStepSchema).nullable().meta({ description: 'api_chain: the steps; null for other types' }),
    secretNames: z.array(z.string()).meta({ description: "api_chain: its secrets' names (values are never returned)" }),
    ...CheckConfigSchema.shape,
    connectHost: z.string().nullable(),
    connectPort: z.number().int().nullable(),
    connectTlsInsecure: z.boolean(),
    heartbeatToken: z.string().nullable(),
    heartbeatUrl: z.string().nullable(),
    lastHeartbeatAt: Timestamp.nullable(),
  })
  .meta({ id: 'Website' });

export const MonitorSchema = z
  .object({
    ...commonSchema,
    type: z.enum(MONITOR_KINDS),
    hostname: z.string(),
    port: z.number().int().nullable().optional(),
    effectivePort: z.number().int().nullable().optional(),
    checkMode: z.enum(CHECK_MODES).optional(),
    hasCredentials: z.boolean().optional(),
    ...Object.fromEntries(allKindFields().map((f) => [f.name, settingOutput(f)])),
  })
  .meta({ id: 'Monitor' });

export const ChangeRequestSchema = z
  .object({
    id: z.number().int(),
    publicId: z.uuid(),
    organizationId: z.number().int(),
    customerId: z.number().int(),
    monitorId: z.number().int().nullable(),
    monitorPublicId: z.uuid(),
    monitorType: z.enum(MONITOR_KINDS),
    action: z.enum(CHANGE_REQUEST_ACTIONS),
    changes: z.record(z.string(), z.unknown()),
    note: z.string().nullable(),
    status: z.enum(CHANGE_REQUEST_STATUSES),
    requestedByUserId: z.string().nullable(),
    decidedByUserId: z.string().nullable(),
    decisionNote: z.string().nullable(),
    decidedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'ChangeRequest' });

export const SuccessSchema = z.object({ success: z.literal(true) });
