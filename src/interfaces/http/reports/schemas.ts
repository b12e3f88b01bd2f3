import { z } from 'zod';
import 'zod-openapi';
import { REPORT_MODES } from '../../../domain/reports/report-definition';
import { REPORT_FREQUENCIES } from '../../../domain/reports/report-schedule';
import { isTimeZone } from '../../../domain/shared/zoned-time';
import { REPORT_RUN_STATUSES } from '../../../application/reports/ports';
import { coded, QueryRef } from '../monitoring/fields';
import { PageQuery, pagedSchema } from '../shared/paging';

const Ref = z.union([z.number().int().positive().max(2_147_483_647), z.string().trim().min(1).max(64)]).transform((value) => String(value));
const Refs = (what: string) =>
  z
    .array(Ref)
    .max(500)
    .default([])
    .meta({ description: `${what} by public id (uuid) or legacy integer id; each must be the organization's (invalidReportScope)` });

const ScopeInput = z
  .object({
    customers: Refs('Customers: every monitor of each'),
    monitors: Refs('Monitors of any kind'),
    tags: Refs('Tags: every monitor carrying one'),
  })
  .strict()
  .meta({
    id: 'ReportScopeInput',
    description:
      'The monitors covered: those of any listed customer, any listed monitor, and any monitor with a listed tag. ' +
      'All empty (the default) = every monitor of the organization.',
  });

const TimeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 24-hour')
  .meta({ description: 'Wall-clock time the report is sent, HH:MM (default 08:00)' });
const TimeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isTimeZone, 'Must be an IANA time zone such as Europe/Berlin')
  .meta({ description: "IANA time zone of the schedule and of the report's days (default UTC)", example: 'Europe/Berlin' });
const Percent = z.number().min(0).max(100);

const fields = {
  name: z.string().trim().min(1).max(200),
  frequency: z.enum(REPORT_FREQUENCIES).meta({ description: 'weekly (needs weekday) or monthly (needs dayOfMonth)' }),
  weekday: coded({
    type: ['integer', 'null'],
    minimum: 1,
    maximum: 7,
    description: 'Weekly: ISO weekday, 1 = Monday ... 7 = Sunday (invalidReportSchedule)',
  }),
  dayOfMonth: coded({ type: ['integer', 'null'], minimum: 1, maximum: 28, description: 'Monthly: day 1-28 (invalidReportSchedule)' }),
  recipients: z
    .array(z.email().max(254))
    .max(50)
    .meta({ description: 'E-mail addresses the PDF is sent to (may be empty: the run is archived only)' }),
  mode: z
    .enum(REPORT_MODES)
    .meta({ description: "`always` sends every run; `threshold` only when a monitor's uptime fell below threshold" }),
  threshold: Percent.nullable().meta({
    description:
      'Uptime percent (of observed time) below which a threshold report is sent; required by threshold mode (invalidReportScope)',
  }),
  slaTarget: Percent.meta({ description: "SLA target each monitor's uptime is judged against, percent (default 99.9)" }),
  enabled: z.boolean().meta({ description: 'Disabled reports do not run on schedule (default true)' }),
};

export const CreateReportBody = z
  .object({
    name: fields.name,
    frequency: fields.frequency,
    weekday: fields.weekday,
    dayOfMonth: fields.dayOfMonth,
    timeOfDay: TimeOfDay.default('08:00'),
    timezone: TimeZone.default('UTC'),
    scope: ScopeInput.default({ customers: [], monitors: [], tags: [] }),
    recipients: fields.recipients.default([]),
    mode: fields.mode.default('always'),
    threshold: fields.threshold.default(null),
    slaTarget: fields.slaTarget.default(99.9),
    enabled: fields.enabled.default(true),
  })
  .strict()
  .meta({ id: 'ReportCreate' });

export const UpdateReportBody = z
  .object({
    name: fields.name.optional(),
    frequency: fields.frequency.optional(),
    weekday: fields.weekday,
    dayOfMonth: fields.dayOfMonth,
    timeOfDay: TimeOfDay.optional(),
    timezone: TimeZone.optional(),
    scope: z
      .object({
        customers: z.array(Ref).max(500).optional(),
        monitors: z.array(Ref).max(500).optional(),
        tags: z.array(Ref).max(500).optional(),
      })
      .strict()
      .optional()
      .meta({ description: 'Each list sent replaces that list' }),
    recipients: fields.recipients.optional(),
    mode: fields.mode.optional(),
    threshold: fields.threshold.optional(),
    slaTarget: fields.slaTarget.optional(),
    enabled: fields.enabled.optional(),
  })
  .strict()
  .meta({ id: 'ReportUpdate' });

export const IdParams = z.object({ id: z.string().min(1).max(64).meta({ description: 'publicId (uuid) or legacy integer id' }) });

const Scope = z
  .object({ customers: z.array(z.string()), monitors: z.array(z.string()), tags: z.array(z.string()) })
  .meta({ id: 'ReportScope', description: 'Public ids; records deleted since are left out' });

export const ReportSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    frequency: z.enum(REPORT_FREQUENCIES),
    weekday: z.number().int().nullable(),
    dayOfMonth: z.number().int().nullable(),
    timeOfDay: z.string(),
    timezone: z.string(),
    scope: Scope,
    recipients: z.array(z.string()),
    mode: z.enum(REPORT_MODES),
    threshold: z.number().nullable(),
    slaTarget: z.number(),
    enabled: z.boolean(),
    nextRunAt: z.iso.datetime().nullable().meta({ description: 'The next scheduled run (null while disabled)' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Report' });

export const ReportRunSchema = z
  .object({
    id: z.uuid(),
    reportId: z.uuid().nullable().meta({ description: "The definition run; null for a customer's own monthly report" }),
    customerId: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The customer of a customer's own monthly report (monthlyReportsEnabled)" }),
    trigger: z.enum(['schedule', 'manual']),
    slot: z.iso.datetime().nullable().meta({ description: 'The scheduled instant a scheduled run stands for' }),
    periodFrom: z.iso.datetime(),
    periodTo: z.iso.datetime(),
    status: z.enum(REPORT_RUN_STATUSES).meta({
      description: '`completed`: PDF archived and sent; `skipped`: threshold mode and no monitor below it (no PDF); `failed`: see error',
    }),
    hasPdf: z.boolean(),
    summary: z
      .object({
        monitors: z.number().int(),
        uptimeOfKnownPercent: z.number().nullable(),
        unknownPercent: z.number().nullable(),
        lowestUptime: z.number().nullable(),
        incidents: z.number().int(),
        slaMissed: z.number().int(),
      })
      .nullable(),
    recipients: z.array(z.string()),
    error: z.string().nullable(),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ReportRun' });

export const RunsQuery = z
  .object({
    reportId: QueryRef.optional().meta({ description: 'Runs of one definition' }),
    status: z.enum(REPORT_RUN_STATUSES).optional(),
    ...PageQuery,
  })
  .strict();

export const RunsPage = pagedSchema(ReportRunSchema, 'ReportRunPage');

export const LogoBody = z
  .object({
    image: z
      .base64()
      .max(700_000)
      .nullable()
      .meta({ description: 'PNG or JPEG bytes, base64 (at most 512 KB decoded); null removes the logo' }),
  })
  .strict()
  .meta({ id: 'ReportLogo' });
