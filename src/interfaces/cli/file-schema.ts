import { z } from 'zod';
import { PER_KIND_TYPES } from '../../domain/monitoring/monitor-kind';
import { TAG_COLORS } from '../../domain/monitoring/tag';
import { MONITOR_KEY } from '../../domain/monitoring/monitor-key';
import { monitorBodies } from '../http/monitoring/monitor.schemas';
import { WebsiteCreateBody } from '../http/monitoring/website.schemas';
import { CreateChannelBody } from '../http/notifications/schemas';

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
  })
  .strict()
  .meta({ title: 'wsm monitoring-as-code file' });
export type WsmFile = z.infer<typeof WsmFile>;

/** The JSON Schema of the file (draft 2020-12), as shipped in schemas/wsm-file.schema.json. */
export const fileJsonSchema = (): Record<string, unknown> =>
  z.toJSONSchema(WsmFile, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
