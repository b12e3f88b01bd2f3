import { z } from 'zod';
import 'zod-openapi';
import { IM_INCIDENT_STATUSES, IM_SEVERITIES, type ImIncidentStatus } from '../../../domain/incident-management/im-incident';
import { IM_INCIDENT_ACTS, type ImIncidentAct } from '../../../domain/incident-management/im-incident-acts';
import { PageQuery } from '../shared/paging';

const Instant = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .meta({ description: 'ISO 8601 date-time with Z or an offset' });
const Status = z.enum(IM_INCIDENT_STATUSES);
const Severity = z.enum(IM_SEVERITIES);
const TeamRef = z.string().trim().min(1).max(64);
const IncidentRef = z.string().trim().min(1).max(64).meta({ description: "The incident's id (uuid)" });

export const IncidentParams = z.object({ id: IncidentRef });

export const ListIncidentsQuery = z
  .object({
    status: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        const statuses = value.split(',').map((s) => s.trim());
        for (const status of statuses) {
          if (!(IM_INCIDENT_STATUSES as readonly string[]).includes(status)) {
            ctx.addIssue({ code: 'custom', message: `Unknown status ${status}; one of ${IM_INCIDENT_STATUSES.join(', ')}` });
            return z.NEVER;
          }
        }
        return statuses as ImIncidentStatus[];
      })
      .meta({ description: 'Comma-separated statuses to keep (triggered, acknowledged, resolved, merged)' }),
    teamId: TeamRef.optional(),
    customerId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    since: Instant.optional().meta({ description: 'Created at or after this instant' }),
    until: Instant.optional().meta({ description: 'Created before this instant' }),
    ...PageQuery,
  })
  .strict();

export const CreateIncidentBody = z
  .object({
    title: z.string().trim().min(1).max(1024),
    description: z.string().trim().max(10_000).nullable().optional(),
    severity: Severity.optional().meta({ description: 'critical (default), error, warning or info' }),
    teamId: TeamRef.nullable().optional().meta({ description: 'A team of the organization (invalidTeamId otherwise)' }),
    customerId: z
      .union([z.number().int().positive(), z.string().trim().min(1).max(64)])
      .nullable()
      .optional()
      .meta({ description: 'A customer of the organization, by id or publicId (invalidCustomerId otherwise)' }),
    escalationPolicyId: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .meta({ description: 'An escalation policy of the organization (imRoutingInvalidPolicyId otherwise)' }),
  })
  .strict()
  .meta({ id: 'ImIncidentCreate' });

export const StatusBody = z
  .object({
    status: Status.meta({
      description: 'The open status to move to: triggered or acknowledged (resolve and merge have their own endpoints)',
    }),
  })
  .strict()
  .meta({ id: 'ImIncidentStatusChange' });

export const SnoozeBody = z
  .object({
    snoozedUntil: Instant.meta({ description: 'In the future, at most 7 days ahead (imSnoozeRangeInvalid)' }),
  })
  .strict()
  .meta({ id: 'ImIncidentSnooze' });

export const ResponderBody = z
  .object({
    userId: z.string().min(1).max(100).meta({
      description:
        'A user of the organization with an IM role (admin, editor, responder), active and not customer-bound (imUserNotEligible otherwise)',
    }),
    notify: z.boolean().default(false).meta({
      description: "Page the responder by e-mail through the delivery ledger; needs an admin of the incident's team (imTeamAdminRequired)",
    }),
  })
  .strict()
  .meta({ id: 'ImIncidentResponder' });

export const MergeBody = z
  .object({
    sourceIncidentIds: z
      .array(IncidentRef)
      .min(1)
      .max(100)
      .meta({ description: 'Open incidents to fold into this one: they become merged and their occurrences move here' }),
  })
  .strict()
  .meta({ id: 'ImIncidentMerge' });

export const BulkBody = z
  .object({
    action: z.enum(['acknowledge', 'resolve']),
    incidentIds: z.array(IncidentRef).min(1).max(100),
  })
  .strict()
  .meta({ id: 'ImIncidentBulkAction' });

export const TimelineEntrySchema = z
  .object({
    id: z.number().int(),
    kind: z.string().meta({
      description:
        'triggered, occurrence, acknowledged, statusChanged, resolved, merged, mergedInto, snoozed, escalated (details: level, pages) or responderAdded (details: userId, notified)',
    }),
    at: z.string(),
    actorUserId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'ImTimelineEntry' });

export const ImIncidentSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string().nullable(),
    status: Status,
    severity: Severity,
    source: z.string().nullable(),
    teamId: z.string().nullable(),
    customerId: z.number().int().nullable(),
    escalationPolicyId: z.string().nullable(),
    dedupKey: z.string(),
    snoozedUntil: z.string().nullable(),
    occurrenceCount: z.number().int(),
    lastOccurrenceAt: z.string(),
    acknowledgedAt: z.string().nullable(),
    acknowledgedByUserId: z.string().nullable(),
    resolvedAt: z.string().nullable(),
    resolvedByUserId: z.string().nullable(),
    mergedIntoId: z.string().nullable(),
    monitorOrigin: z
      .object({
        monitorId: z.string().meta({ description: 'publicId of the monitor' }),
        incidentId: z.string().meta({ description: 'publicId of the check-engine incident (GET /api/incidents/{id})' }),
      })
      .nullable()
      .meta({ description: 'The monitor and automatic incident this incident was routed from; null for other incidents' }),
    createdAt: z.string(),
    updatedAt: z.string(),
    version: z.number().int(),
    can: z.object(Object.fromEntries(IM_INCIDENT_ACTS.map((act) => [act, z.boolean()])) as Record<ImIncidentAct, z.ZodBoolean>).meta({
      id: 'ImIncidentActs',
      description:
        'The acts the caller may take on this incident now, from the gates that enforce them: acknowledge (every IM user, ' +
        'a triggered incident), retrigger (POST /status back to triggered), resolve, snooze, merge (others into this one), ' +
        'addResponder and escalate (POST /escalate) need the team (see each route) and an open incident; escalate also the ' +
        'role. A lost race can still refuse one (409).',
    }),
  })
  .meta({ id: 'ImIncident' });

export const ImIncidentWithTimelineSchema = ImIncidentSchema.extend({ timeline: z.array(TimelineEntrySchema) }).meta({
  id: 'ImIncidentWithTimeline',
});

export const OutboundParams = z.object({
  id: z.string().min(1).max(100).meta({ description: 'Delivery id of the page (uuid)' }),
});

export const OutboundDeliverySchema = z
  .object({
    id: z.string().meta({ description: 'Delivery id' }),
    status: z.enum(['pending', 'delivered', 'failed']).meta({ description: 'pending once re-queued' }),
    integration: z.string().meta({ description: 'The outbound kind it travels by: email, sms or webhook' }),
  })
  .meta({ id: 'ImOutboundDelivery' });
