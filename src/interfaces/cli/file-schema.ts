import { z } from 'zod';
import { PER_KIND_TYPES } from '../../domain/monitoring/monitor-kind';
import { TAG_COLORS } from '../../domain/monitoring/tag';
import { MONITOR_KEY } from '../../domain/monitoring/monitor-key';
import { monitorBodies } from '../http/monitoring/monitor.schemas';
import { WebsiteCreateBody } from '../http/monitoring/website.schemas';
import { CreateChannelBody } from '../http/notifications/schemas';
import { CreateWindowBody } from '../http/maintenance/schemas';
import { CreatePageBody } from '../http/status-pages/schemas';
import { CreateCustomFieldBody } from '../http/tenancy/custom-field.schemas';

/**
 * The monitoring-as-code file, described by the API's own create bodies: a monitor entry is the
 * create body of its kind (what POST /api/websites or /api/monitors/{type} takes) with its key,
 * its kind, its customer and its tags' names in place of the fields that steer a create. The JSON
 * Schema editors validate with (schemas/wsm-file.schema.json) is generated from these.
 */

/** Create-body fields a file entry does not carry: the customer is `customer`, the rest steer a single call. */
const STEERING = new Set(['customerId', 'allowPaidQuotaUpgrade', 'heartbeatToken', 'key']);

export const Key = z
  .string()
  .regex(MONITOR_KEY)
  .meta({
    description:
      "The monitor's stable key (letters, digits and . _ : / -, at most 128): apply matches the entry to the service's monitor " +
      'with this key (or, for a monitor that has none, this publicId), never by name, so a run interrupted half way and run ' +
      'again creates nothing twice',
  });

const Customer = z.uuid().meta({ description: "The customer's publicId" });
const TagName = z.string().trim().min(1).max(50);

const entryFields = (body: z.ZodObject) => Object.fromEntries(Object.entries(body.shape).filter(([field]) => !STEERING.has(field)));

const monitorEntry = (kind: string, body: z.ZodObject) =>
  z
    .object({
      key: Key,
      kind: z.literal(kind),
      customer: Customer.optional().meta({ description: "The customer's publicId; default: the file's customer" }),
      tags: z.array(TagName).max(5).optional().meta({ description: "Names of tags of the monitor's customer or organization-wide ones" }),
      ...entryFields(body),
    })
    .strict();

const ENTRIES = [
  monitorEntry('website', WebsiteCreateBody),
  ...PER_KIND_TYPES.map((type) => monitorEntry(type, monitorBodies(type).create)),
] as const;

export const MonitorEntry = z.discriminatedUnion('kind', ENTRIES);
export type MonitorEntry = z.infer<typeof MonitorEntry>;

export const TagEntry = z
  .object({
    name: TagName.meta({ description: 'Unique per customer (organization-wide tags: per organization), case-insensitively: the key' }),
    color: z.enum(TAG_COLORS),
    customer: Customer.optional().meta({ description: "The customer's publicId; omitted: organization-wide (or the file's customer)" }),
  })
  .strict();
export type TagEntry = z.infer<typeof TagEntry>;

/** Settings every monitor of a kind has unless its entry says otherwise (export writes the common ones here). */
export const MonitorDefaults = z
  .object(
    Object.fromEntries(
      ENTRIES.map((entry) => [entry.shape.kind.value, entry.omit({ key: true, kind: true, customer: true }).partial().optional()]),
    ),
  )
  .strict()
  .meta({ description: 'Per kind (website, dns, ...): fields each monitor of that kind has unless its entry sets them' });
export type MonitorDefaults = Record<string, Record<string, unknown> | undefined>;

/** A notification channel of the organization or of a customer: the API's create body with its key and customer. */
export const ChannelEntry = z
  .object({
    key: Key.meta({
      description: "The channel's stable key: apply matches the entry to the channel with this key (or, without one, this publicId)",
    }),
    customer: Customer.optional().meta({
      description: "The customer's publicId; omitted: the organization's channel (or the file's customer's)",
    }),
    ...Object.fromEntries(
      Object.entries(CreateChannelBody.shape).filter(([field]) => !['key', 'customerId', 'websiteId', 'sourceChannelId'].includes(field)),
    ),
  })
  .strict();
export type ChannelEntry = z.infer<typeof ChannelEntry>;

/** A monitor a window or a page names: by its key in this file (or its publicId). */
const MonitorRef = z.object({ monitor: Key.meta({ description: "The monitor's key (or publicId)" }) }).strict();
const AssetRef = (type: 'customer' | 'customerDomain' | 'customerIp') =>
  z.object({ [type]: z.uuid().meta({ description: `The ${type}'s publicId` }) }).strict();

/** What a maintenance window covers: one monitor by key, a whole customer, a watched domain or IP. */
export const TargetRef = z.union([MonitorRef, AssetRef('customer'), AssetRef('customerDomain'), AssetRef('customerIp')]);
export type TargetRef = z.infer<typeof TargetRef>;

const Instant = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 date-time with Z or an offset' });

/** A maintenance window: the API's create body with a key, its targets naming monitors by their keys. */
export const MaintenanceWindowEntry = z
  .object({
    ...CreateWindowBody.shape,
    key: Key.meta({ description: "The window's stable key: apply matches the entry to the window with this key" }),
    startTime: Instant,
    endTime: Instant,
    targets: z.array(TargetRef).min(1).max(100),
  })
  .strict();
export type MaintenanceWindowEntry = z.infer<typeof MaintenanceWindowEntry>;

const ComponentName = { name: z.string().trim().min(1).max(200).nullable().optional() };
/** A component of a status page: a monitor by key, or a watched domain or IP, with the name shown for it. */
export const ComponentRef = z.union([
  MonitorRef.extend(ComponentName),
  AssetRef('customerDomain').extend(ComponentName),
  AssetRef('customerIp').extend(ComponentName),
]);
export type ComponentRef = z.infer<typeof ComponentRef>;

/** A status page: the API's create body, its slug the key, its components naming monitors by their keys. */
export const StatusPageEntry = CreatePageBody.omit({ customerId: true })
  .extend({
    customer: Customer.optional().meta({
      description: "The customer's publicId; omitted: the organization's page (or the file's customer's)",
    }),
    groups: z
      .array(z.object({ name: z.string().trim().min(1).max(200), components: z.array(ComponentRef).max(200) }).strict())
      .max(50)
      .default([]),
  })
  .strict();
export type StatusPageEntry = z.infer<typeof StatusPageEntry>;

/** A custom field of the organization's customers: the API's create body; fieldKey is the key. */
export const CustomFieldEntry = CreateCustomFieldBody.omit({ organizationId: true }).strict();
export type CustomFieldEntry = z.infer<typeof CustomFieldEntry>;

export const WsmFile = z
  .object({
    version: z.literal(1),
    customer: Customer.optional().meta({
      description: 'Limits the file to one customer: only its resources are compared, created and (with --prune) deleted',
    }),
    tags: z.array(TagEntry).optional(),
    notificationChannels: z.array(ChannelEntry).optional(),
    defaults: MonitorDefaults.optional(),
    monitors: z.array(MonitorEntry).optional(),
    customFields: z.array(CustomFieldEntry).optional().meta({ description: 'Organization files only' }),
    maintenanceWindows: z.array(MaintenanceWindowEntry).optional(),
    statusPages: z.array(StatusPageEntry).optional(),
  })
  .strict()
  .meta({ title: 'wsm monitoring-as-code file' });
export type WsmFile = z.infer<typeof WsmFile>;

/** The JSON Schema of the file (draft 2020-12), as shipped in schemas/wsm-file.schema.json. */
export const fileJsonSchema = (): Record<string, unknown> =>
  z.toJSONSchema(WsmFile, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
