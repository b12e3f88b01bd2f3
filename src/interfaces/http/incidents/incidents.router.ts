import { z } from 'zod';
import { INCIDENT_ORIGINS, INCIDENT_STATUSES } from '../../../domain/incidents/incident';
import { ListIncidents } from '../../../application/incidents/list-incidents';
import { GetIncident } from '../../../application/incidents/get-incident';
import { CreateManualIncident } from '../../../application/incidents/create-manual-incident';
import { DeleteIncident } from '../../../application/incidents/delete-incident';
import { AcknowledgeIncident } from '../../../application/incidents/acknowledge-incident';
import { ResolveIncident } from '../../../application/incidents/resolve-incident';
import { PostIncidentUpdate } from '../../../application/incidents/post-incident-update';
import { INCIDENT_UPDATE_MAX_LENGTH } from '../../../domain/incidents/incident';
import { ApiRouter } from '../shared/api-router';
import { PageQuery, QueryId, paged, pagedSchema } from '../shared/paging';
import { defineRouter } from '../shared/router-deps';
import { presentIncident, presentMonitorLabel, presentTimelineEntry } from './presenters';
import { DateParam, IncidentDetailSchema, IncidentListItemSchema, IncidentSchema, TimelineEntrySchema } from './schemas';

const tags = ['Incidents'] as const;
const IdParams = z.object({ id: z.string().min(1).max(64) });
const STATUS_NOTE =
  'Statuses: `open` (triggered, nobody has taken it), `acknowledged` (someone is on it; reminders stop), ' +
  "`resolved`. The spec's `merged` belongs to the incident-management area (/api/im/incidents).";

/** Monitor incidents: automatic ones from the alert rules, manual ones declared by people. */
export const incidentsRouter = defineRouter(
  {
    listIncidents: ListIncidents,
    getIncident: GetIncident,
    createManualIncident: CreateManualIncident,
    acknowledgeIncident: AcknowledgeIncident,
    resolveIncident: ResolveIncident,
    postIncidentUpdate: PostIncidentUpdate,
    deleteIncident: DeleteIncident,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listIncidents',
        method: 'get',
        path: '/api/incidents',
        tags,
        summary: 'Incidents, newest first',
        description:
          `${STATUS_NOTE} Filters combine; from/to select incidents overlapping the range (started before to, ` +
          "not resolved before from). Customer-scoped callers see their customer's incidents only.",
        query: z
          .object({
            ...PageQuery,
            status: z.enum(INCIDENT_STATUSES).optional(),
            origin: z.enum(INCIDENT_ORIGINS).optional(),
            monitorId: QueryId.optional(),
            customerId: QueryId.optional(),
            from: DateParam.optional(),
            to: DateParam.optional(),
          })
          .strict(),
        response: pagedSchema(IncidentListItemSchema, 'IncidentPage'),
        errors: ['invalidDateRange'],
        handler: async ({ actor, query }) => {
          const { items, total, monitors } = await use.listIncidents.execute(actor, query);
          return paged(
            items.map((incident) => ({ ...presentIncident(incident), ...presentMonitorLabel(monitors.get(incident.monitorId)) })),
            total,
            query,
          );
        },
      })
      .route({
        operationId: 'getIncident',
        method: 'get',
        path: '/api/incidents/{id}',
        tags,
        summary: 'One incident with its timeline',
        description:
          "Timeline kinds: opened, locationReport (a location's state when the incident opened and each later " +
          'change), reminder, acknowledged, update (a note people posted, in message), resolved. The path takes the publicId or the integer id. affectedMonitors: the ' +
          'monitors depending on this one that fail with it while it is open (see dependsOn on monitors).',
        params: IdParams,
        response: IncidentDetailSchema,
        errors: ['incidentNotFound'],
        handler: async ({ actor, params }) => {
          const { incident, timeline, affected, monitor } = await use.getIncident.execute(actor, params.id);
          return {
            ...presentIncident(incident),
            ...presentMonitorLabel(monitor ?? undefined),
            timeline: timeline.map(presentTimelineEntry),
            affectedMonitors: affected.map((m) => ({ publicId: m.publicId, name: m.name, since: m.since.toISOString() })),
          };
        },
      })
      .route({
        operationId: 'declareIncident',
        method: 'post',
        path: '/api/incidents',
        tags,
        status: 201,
        summary: 'Declare a manual incident on a monitor',
        description:
          "Admins and editors. monitorId takes the monitor's publicId or integer id. Manual incidents are never " +
          'closed by the alert rules: resolve or delete them.',
        body: z
          .object({
            monitorId: z.union([z.number().int().positive(), z.string().min(1).max(64)]).transform(String),
            title: z.string().trim().min(1).max(200),
            description: z.string().trim().max(5000).nullable().optional(),
          })
          .strict(),
        response: IncidentSchema,
        errors: ['roleForbidden', 'monitorNotFound'],
        handler: async ({ actor, body }) => presentIncident(await use.createManualIncident.execute(actor, body)),
      })
      .route({
        operationId: 'acknowledgeIncident',
        method: 'post',
        path: '/api/incidents/{id}/acknowledge',
        tags,
        summary: 'Acknowledge an open incident',
        description:
          'Admins, editors and responders. Reminders stop until the incident resolves. Repeating it changes nothing. ' +
          'An automatic incident routed into incident management is acknowledged there too, by the same person at the same moment ' +
          '(and an acknowledgement or resolution made there shows here): one act, notified once, wherever it happens.',
        params: IdParams,
        response: IncidentSchema,
        errors: ['roleForbidden', 'incidentNotFound', 'incidentAlreadyResolved', 'conflict'],
        handler: async ({ actor, params }) => presentIncident(await use.acknowledgeIncident.execute(actor, params.id)),
      })
      .route({
        operationId: 'resolveIncident',
        method: 'post',
        path: '/api/incidents/{id}/resolve',
        tags,
        summary: 'Resolve a manual incident',
        description: 'Admins and editors. Monitor-generated incidents resolve when the monitor recovers: notManualIncident.',
        params: IdParams,
        response: IncidentSchema,
        errors: ['roleForbidden', 'incidentNotFound', 'notManualIncident', 'incidentAlreadyResolved', 'conflict'],
        handler: async ({ actor, params }) => presentIncident(await use.resolveIncident.execute(actor, params.id)),
      })
      .route({
        operationId: 'postIncidentUpdate',
        method: 'post',
        path: '/api/incidents/{id}/updates',
        tags,
        status: 201,
        summary: "Post an update (a note) to an open incident's timeline",
        description:
          'Admins, editors and responders. The note is trimmed and stored as an `update` entry of the timeline with the ' +
          'poster as userId; the audit log lists it under the incident, and the event stream tells open consoles ' +
          '(`incident.updated`). A resolved incident answers incidentAlreadyResolved. Notification channels are not told.',
        params: IdParams,
        body: z.object({ message: z.string().trim().min(1).max(INCIDENT_UPDATE_MAX_LENGTH) }).strict(),
        response: TimelineEntrySchema,
        errors: ['roleForbidden', 'incidentNotFound', 'incidentAlreadyResolved'],
        handler: async ({ actor, params, body }) =>
          presentTimelineEntry(await use.postIncidentUpdate.execute(actor, { id: params.id, message: body.message })),
      })
      .route({
        operationId: 'deleteIncident',
        method: 'delete',
        path: '/api/incidents/{id}',
        tags,
        summary: 'Delete a manual incident',
        description: "Admins and editors. Monitor-generated incidents are the monitor's history and answer notManualIncident.",
        params: IdParams,
        response: z.object({ success: z.literal(true) }),
        errors: ['roleForbidden', 'incidentNotFound', 'notManualIncident'],
        handler: async ({ actor, params }) => {
          await use.deleteIncident.execute(actor, params.id);
          return { success: true as const };
        },
      }).router;
  },
);
