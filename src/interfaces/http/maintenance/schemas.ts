import { z } from 'zod';
import 'zod-openapi';
import { TARGET_TYPES } from '../../../domain/maintenance/maintenance-window';
import { RESOURCE_KEY } from '../../../domain/shared/resource-key';

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const Instant = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .meta({ description: 'ISO 8601 date-time with Z or an offset' });
const TimeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isTimeZone, 'Must be an IANA time zone such as Europe/Berlin')
  .meta({ description: 'IANA time zone the recurrence is evaluated in (default UTC)', example: 'Europe/Berlin' });
const Rrule = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .nullable()
  .meta({ description: 'RFC 5545 RRULE without DTSTART (startTime is the first start), e.g. `FREQ=WEEKLY;BYDAY=SU`; null = once' });
const Ref = z.string().trim().max(64);
const WindowKey = z
  .string()
  .regex(RESOURCE_KEY)
  .nullable()
  .meta({
    description:
      "A stable key the client chooses (letters, digits and . _ : / -, at most 128), unique among the organization's windows " +
      '(maintenanceWindowKeyTaken); monitoring-as-code tools match their entries to windows by it. null: none',
  });

const Target = z
  .object({
    type: z.enum(TARGET_TYPES as [string, ...string[]]).meta({
      description:
        '`website` or `monitor`: one monitor of any kind; `customer`: every monitor of the customer, present and future; ' +
        '`customerIp` / `customerDomain`: that watched address or domain',
    }) as z.ZodType<(typeof TARGET_TYPES)[number]>,
    id: Ref.nullable().optional().meta({ description: 'Public id (uuid) or legacy integer id of the record; required (missingTargetId)' }),
  })
  .strict()
  .meta({ id: 'MaintenanceWindowTargetInput' });

export const CreateWindowBody = z
  .object({
    key: WindowKey.optional(),
    title: z.string().trim().min(1).max(200),
    description: z.string().trim().max(5000).nullable().default(null),
    startTime: Instant.meta({ description: 'Start of the (first) occurrence' }),
    endTime: Instant.meta({
      description: 'End of the (first) occurrence; after startTime (endTimeBeforeStartTime). Every occurrence lasts as long',
    }),
    timezone: TimeZone.default('UTC'),
    rrule: Rrule.default(null),
    targets: z.array(Target).min(1).max(100),
    suppressAlerts: z
      .boolean()
      .default(true)
      .meta({ description: 'No incident opens and no reminder goes out while an occurrence runs (default true)' }),
    excludeFromUptime: z.boolean().default(false).meta({ description: 'Uptime figures leave the occurrences out (default false)' }),
  })
  .strict()
  .meta({ id: 'MaintenanceWindowCreate' });

export const UpdateWindowBody = z
  .object({
    key: WindowKey.optional(),
    title: z.string().trim().min(1).max(200).optional(),
    description: z.string().trim().max(5000).nullable().optional(),
    startTime: Instant.optional(),
    endTime: Instant.optional(),
    timezone: TimeZone.optional(),
    rrule: Rrule.optional(),
    targets: z.array(Target).min(1).max(100).optional().meta({ description: 'Replaces every target' }),
    suppressAlerts: z.boolean().optional(),
    excludeFromUptime: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'MaintenanceWindowUpdate' });

export const PreviewBody = z
  .object({
    startTime: Instant,
    endTime: Instant,
    timezone: TimeZone.default('UTC'),
    rrule: Rrule.default(null),
    from: Instant.optional().meta({ description: 'List occurrences that end after this instant (default: startTime)' }),
    count: z.number().int().min(1).max(100).default(10),
  })
  .strict()
  .meta({ id: 'MaintenanceWindowPreview' });

export const CheckBatchBody = z
  .object({
    websiteIds: z.array(Ref.min(1)).min(1).max(500),
    at: Instant.optional().meta({ description: 'The instant to check (default now)' }),
  })
  .strict()
  .meta({ id: 'MaintenanceCheckBatch' });

export const CheckQuery = z.object({ at: Instant.optional().meta({ description: 'The instant to check (default now)' }) }).strict();
export const ListQuery = z
  .object({
    websiteId: Ref.min(1).optional().meta({ description: 'Only windows covering this website, directly or through its customer' }),
  })
  .strict();
export const IdParams = z.object({ id: Ref.min(1) });
export const WebsiteParams = z.object({ websiteId: Ref.min(1) });

export const OccurrenceSchema = z.object({ startTime: z.iso.datetime(), endTime: z.iso.datetime() }).meta({ id: 'MaintenanceOccurrence' });

export const MaintenanceWindowSchema = z
  .object({
    id: z.uuid(),
    key: z.string().nullable().meta({ description: 'The stable key the client gave the window, null when none' }),
    customerId: z.number().int().nullable().meta({
      description: 'The customer the window belongs to (its targets all belong to it, or a customer created it); null: the organization',
    }),
    title: z.string(),
    description: z.string().nullable(),
    startTime: z.iso.datetime(),
    endTime: z.iso.datetime(),
    timezone: z.string(),
    rrule: z.string().nullable(),
    durationMinutes: z.number().int().meta({
      description: 'Length of each occurrence in whole minutes, rounded to the nearest (endTime - startTime gives the exact length)',
    }),
    targets: z.array(z.object({ type: z.enum(TARGET_TYPES as [string, ...string[]]), id: z.uuid() })),
    suppressAlerts: z.boolean(),
    excludeFromUptime: z.boolean(),
    status: z
      .enum(['scheduled', 'in_progress', 'completed'])
      .meta({ description: 'in_progress while an occurrence runs; completed when none is left' }),
    currentOccurrence: OccurrenceSchema.nullable(),
    nextOccurrence: OccurrenceSchema.nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'MaintenanceWindow' });

export const MaintenanceCheckSchema = z
  .object({
    websiteId: z.string(),
    at: z.iso.datetime(),
    inMaintenance: z.boolean(),
    suppressAlerts: z.boolean(),
    excludeFromUptime: z.boolean(),
    windows: z.array(z.object({ id: z.uuid(), title: z.string(), startTime: z.iso.datetime(), endTime: z.iso.datetime() })),
  })
  .meta({ id: 'MaintenanceCheck' });
