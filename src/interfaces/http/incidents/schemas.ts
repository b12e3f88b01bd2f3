import { z } from 'zod';
import { INCIDENT_ORIGINS, INCIDENT_STATUSES } from '../../../domain/incidents/incident';
import { TIMELINE_KINDS } from '../../../domain/incidents/timeline-entry';
import { CHECK_STATUSES } from '../../../domain/results/check-status';

const Timestamp = z.string().meta({ description: 'ISO 8601 UTC' });
/** Kept a string so that a value that is not a date answers invalidDateRange, as the spec requires. */
export const DateParam = z.string().max(64).meta({ description: 'ISO 8601 date or date-time' });

export const IncidentSchema = z
  .object({
    id: z.number().int(),
    publicId: z.uuid(),
    organizationId: z.number().int(),
    customerId: z.number().int(),
    monitorId: z.number().int(),
    origin: z.enum(INCIDENT_ORIGINS).meta({ description: 'automatic: opened and closed by the alert rules; manual: created by a person' }),
    status: z.enum(INCIDENT_STATUSES),
    title: z.string(),
    description: z.string().nullable(),
    cause: z.object({ reasonCode: z.string().nullable(), message: z.string().nullable() }).nullable(),
    startedAt: Timestamp,
    acknowledgedAt: Timestamp.nullable(),
    acknowledgedByUserId: z.string().nullable(),
    resolvedAt: Timestamp.nullable(),
    resolvedByUserId: z.string().nullable().meta({ description: 'null when the monitor recovery resolved it' }),
    createdByUserId: z.string().nullable(),
    durationSeconds: z.number().int().nullable().meta({ description: 'resolved incidents only' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Incident' });

/** How a list and a detail name an incident's monitor, whatever its kind. */
const MonitorLabelFields = {
  monitorName: z.string().nullable().meta({ description: "Its monitor's name; null once the monitor is deleted" }),
  monitorKind: z
    .string()
    .nullable()
    .meta({ description: "Its monitor's kind, the path its record lives under (website, dns, tcp...); null once the monitor is deleted" }),
};

export const IncidentListItemSchema = IncidentSchema.extend(MonitorLabelFields).meta({ id: 'IncidentListItem' });

export const TimelineEntrySchema = z
  .object({
    kind: z.enum(TIMELINE_KINDS),
    at: Timestamp,
    location: z.string().nullable(),
    status: z.enum(CHECK_STATUSES).nullable(),
    reasonCode: z.string().nullable(),
    message: z.string().nullable(),
    userId: z.string().nullable(),
  })
  .meta({ id: 'IncidentTimelineEntry' });

export const AffectedMonitorSchema = z
  .object({
    publicId: z.uuid(),
    name: z.string(),
    since: z.iso.datetime().meta({ description: 'Since when this incident stands for it' }),
  })
  .meta({ id: 'AffectedMonitor' });

export const IncidentDetailSchema = IncidentSchema.extend({
  ...MonitorLabelFields,
  timeline: z.array(TimelineEntrySchema),
  affectedMonitors: z.array(AffectedMonitorSchema).meta({
    description:
      'While the automatic incident is open: the monitors depending on its monitor that fail with it (their state is ' +
      'dependencyDown; they open no incident of their own), added and removed as they fail and recover; a customer-bound ' +
      "caller sees its customer's only. Empty otherwise",
  }),
}).meta({ id: 'IncidentDetail' });

const Ms = z.number().nullable();
export const CheckResultSchema = z
  .object({
    checkedAt: Timestamp,
    location: z.string(),
    status: z.enum(CHECK_STATUSES),
    responseTimeMs: z.number().int().nullable(),
    reasonCode: z.string().nullable(),
    message: z.string().nullable(),
    timings: z.object({ dnsMs: Ms, connectMs: Ms, tlsMs: Ms, firstByteMs: Ms, totalMs: Ms }).nullable(),
    evidence: z.record(z.string(), z.unknown()).nullable(),
    detailKept: z.boolean().meta({ description: 'false for up results outside the sample: timings, message and evidence are null' }),
  })
  .meta({ id: 'StoredCheckResult' });

/** Two decimals; null when nothing is known (no result yet in the period). */
const Percent = z.number().min(0).max(100).nullable();
export const UptimeStatsSchema = z
  .object({
    period: z.enum(['24h', '7d', '30d', 'range']),
    from: Timestamp,
    to: Timestamp,
    monitoredSince: Timestamp.nullable().meta({
      description:
        "Where the figures start: the later of from and the monitor's first result (a monitor younger than the " +
        'period is measured since its first check); null when no result is known yet, and then every share is null',
    }),
    uptimePercent: Percent.meta({ description: '(up + degraded) / window; with downtimePercent and unknownPercent it adds up to 100' }),
    downtimePercent: Percent.meta({ description: 'down / window' }),
    degradedPercent: Percent.meta({ description: 'degraded / window: the part of uptimePercent the target answered degraded' }),
    unknownPercent: Percent.meta({ description: 'unknown / window: expected location-time no result stands for' }),
    uptimeOfKnownPercent: Percent.meta({
      description: '(up + degraded) / (up + degraded + down): uptime of the observed time; null when nothing was observed',
    }),
    upSeconds: z.number().int(),
    degradedSeconds: z.number().int(),
    downSeconds: z.number().int(),
    unknownSeconds: z.number().int(),
    checks: z.object({ total: z.number().int(), up: z.number().int(), degraded: z.number().int(), down: z.number().int() }),
    responseTime: z.object({ avgMs: Ms, p50Ms: Ms, p95Ms: Ms, p99Ms: Ms }),
    locations: z.array(z.string()),
  })
  .meta({ id: 'UptimeStats' });
