import { z } from 'zod';
import 'zod-openapi';
import { OBJECTIVE_WINDOWS, MAX_TARGET, MIN_TARGET } from '../../../domain/service-levels/objective';

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const Ref = z.string().trim().min(1).max(64);
const Name = z.string().trim().min(1).max(200);
const Target = z
  .number()
  .min(MIN_TARGET)
  .max(MAX_TARGET)
  .meta({
    description: `Percent of known time that must be good (up or degraded), ${MIN_TARGET} to ${MAX_TARGET} (validationFailed outside), at most three decimals (invalidServiceLevelObjective, data.field target)`,
    example: 99.9,
  });
const Window = z.enum(OBJECTIVE_WINDOWS).meta({
  description: 'rolling7d / rolling28d / rolling30d: the last 7, 28 or 30 days; calendarMonth: the month so far, in timezone',
});
const TimeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isTimeZone, 'Must be an IANA time zone such as Europe/Berlin')
  .meta({ description: 'IANA time zone a calendar month is counted in (default UTC)', example: 'Europe/Berlin' });

const Subject = z
  .discriminatedUnion('type', [
    z
      .object({ type: z.literal('website'), websiteId: Ref.meta({ description: 'Public id (uuid) or integer id of the monitor' }) })
      .strict(),
    z
      .object({
        type: z.literal('customer'),
        customerId: Ref.meta({ description: 'The customer whose monitors the objective covers' }),
        tagId: Ref.nullable().optional().meta({ description: 'Only the monitors carrying this tag (the customer’s or organization-wide)' }),
      })
      .strict(),
  ])
  .meta({ id: 'ServiceLevelSubjectInput' });

export const CreateObjectiveBody = z
  .object({
    name: Name,
    target: Target,
    window: Window.default('rolling30d'),
    timezone: TimeZone.default('UTC'),
    subject: Subject,
    alertsEnabled: z.boolean().default(true).meta({ description: 'Burn-rate alerts go to the notification channels (default true)' }),
  })
  .strict()
  .meta({ id: 'ServiceLevelObjectiveCreate' });

export const UpdateObjectiveBody = z
  .object({
    name: Name.optional(),
    target: Target.optional(),
    window: Window.optional(),
    timezone: TimeZone.optional(),
    subject: Subject.optional(),
    alertsEnabled: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'ServiceLevelObjectiveUpdate' });

export const IdParams = z.object({ id: Ref });
export const StatusQuery = z
  .object({
    from: z.string().max(40).optional().meta({ description: 'ISO 8601 start of the stretch to measure (default: the window’s start)' }),
    to: z.string().max(40).optional().meta({ description: 'ISO 8601 end (default: now); after from (invalidDateRange)' }),
  })
  .strict();

export const ObjectiveSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    target: z.number(),
    window: Window,
    timezone: z.string(),
    customerId: z.number().int(),
    subject: z.union([
      z.object({ type: z.literal('website'), websiteId: z.uuid() }),
      z.object({ type: z.literal('customer'), customerId: z.number().int(), tagId: z.number().int().nullable() }),
    ]),
    alertsEnabled: z.boolean(),
    burnState: z.enum(['ok', 'burning']).meta({ description: 'What the last burn-rate evaluation (every minute) decided' }),
    burnChangedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ServiceLevelObjective' });

const Rate = z.number().nullable();

export const ObjectiveStatusSchema = z
  .object({
    objective: ObjectiveSchema,
    at: z.iso.datetime(),
    window: z.object({
      from: z.iso.datetime(),
      to: z.iso.datetime(),
      end: z.iso.datetime().meta({ description: 'Where the window ends: now for a rolling window, the month’s end for a calendar month' }),
    }),
    monitors: z.number().int().meta({ description: 'Monitors the objective covers now' }),
    attainmentPercent: z
      .number()
      .nullable()
      .meta({ description: 'Good time over known time, maintenance left out; null when nothing is known' }),
    met: z.boolean().nullable(),
    unknownMinutes: z.number().meta({ description: 'Time no result stands for: neither good nor bad' }),
    unknownPercent: z.number().nullable(),
    maintenanceMinutes: z.number(),
    budget: z.object({
      totalMinutes: z.number(),
      spentMinutes: z.number(),
      leftMinutes: z.number(),
      leftPercent: z.number().nullable().meta({ description: 'Negative once the budget is overspent' }),
    }),
    burnRates: z
      .object({ '5m': Rate, '30m': Rate, '1h': Rate, '6h': Rate })
      .meta({ description: 'Bad share of known time over the allowed share (1 - target), over the last 5 and 30 minutes, 1 and 6 hours' }),
    firing: z
      .array(z.enum(['fast', 'slow']))
      .meta({ description: 'fast: 1 h and 5 min at 14.4x or more; slow: 6 h and 30 min at 6x or more' }),
  })
  .meta({ id: 'ServiceLevelStatus' });
