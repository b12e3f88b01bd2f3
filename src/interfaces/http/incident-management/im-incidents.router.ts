import { z } from 'zod';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import { CreateImIncident } from '../../../application/incident-management/create-im-incident';
import { ListImIncidents } from '../../../application/incident-management/list-im-incidents';
import { GetImIncident } from '../../../application/incident-management/get-im-incident';
import { AcknowledgeImIncident } from '../../../application/incident-management/acknowledge-im-incident';
import { ChangeImIncidentStatus } from '../../../application/incident-management/change-im-incident-status';
import { ResolveImIncident } from '../../../application/incident-management/resolve-im-incident';
import { SnoozeImIncident } from '../../../application/incident-management/snooze-im-incident';
import { MergeImIncidents } from '../../../application/incident-management/merge-im-incidents';
import { BulkImIncidentAction } from '../../../application/incident-management/bulk-im-incident-action';
import { AddImIncidentResponder } from '../../../application/incident-management/add-im-incident-responder';
import { RetryImOutbound } from '../../../application/incident-management/retry-im-outbound';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { paged, pagedSchema } from '../shared/paging';
import {
  BulkBody,
  CreateIncidentBody,
  ImIncidentSchema,
  ImIncidentWithTimelineSchema,
  IncidentParams,
  ListIncidentsQuery,
  MergeBody,
  OutboundDeliverySchema,
  OutboundParams,
  ResponderBody,
  SnoozeBody,
  StatusBody,
} from './schemas';
import { ImIncidentActsOf } from '../../../application/incident-management/im-incident-acts';
import { presentImIncidentTo, presentImIncidentsTo, presentTimelineEntry } from './presenters';

const tags = ['IM incidents'] as const;
/** Every IM route answers these (the access gate). */
export const IM_GATE_ERRORS: ErrorCode[] = ['imAccessDenied', 'imNotEnabled', 'customerScopedTokenForbidden'];
export const CHANGE_ERRORS: ErrorCode[] = [...IM_GATE_ERRORS, 'imIncidentNotFound', 'imIncidentAlreadyClosed', 'imIncidentStatusConflict'];
export const MEMBERS_NOTE =
  "Members of the incident's team, organization admins and platform admins only (imTeamMembershipRequired); " +
  'an incident routed to no team is open to every IM user.';
export const CONFLICT_NOTE = 'A concurrent change answers 409 imIncidentStatusConflict: read the incident again and retry.';

/** Incidents of incident management: list, read with the timeline, declare, and move through their statuses. */
export const imIncidentsRouter = defineRouter(
  {
    listImIncidents: ListImIncidents,
    createImIncident: CreateImIncident,
    bulkImIncidentAction: BulkImIncidentAction,
    getImIncident: GetImIncident,
    acknowledgeImIncident: AcknowledgeImIncident,
    changeImIncidentStatus: ChangeImIncidentStatus,
    resolveImIncident: ResolveImIncident,
    snoozeImIncident: SnoozeImIncident,
    addImIncidentResponder: AddImIncidentResponder,
    mergeImIncidents: MergeImIncidents,
    retryImOutbound: RetryImOutbound,
    acts: ImIncidentActsOf,
  },
  (deps, use) => {
    const one = z.object({ ...ImIncidentSchema.shape });
    return new ApiRouter(deps)
      .route({
        operationId: 'listImIncidents',
        method: 'get',
        path: '/api/im/incidents',
        tags,
        summary: 'List IM incidents',
        description: 'Newest first. Filters: status (comma-separated), teamId, customerId, since/until (creation time); paged.',
        query: ListIncidentsQuery,
        response: pagedSchema(ImIncidentSchema, 'ImIncidentPage'),
        errors: IM_GATE_ERRORS,
        handler: async ({ actor, query }) => {
          const { page, perPage, status, ...rest } = query;
          const result = await use.listImIncidents.execute(actor, { ...rest, statuses: status }, { page, perPage });
          return paged(await presentImIncidentsTo(use.acts, actor, result.items), result.total, { page, perPage });
        },
      })
      .route({
        operationId: 'createImIncident',
        method: 'post',
        path: '/api/im/incidents',
        tags,
        summary: 'Declare an IM incident',
        description:
          "Opens a triggered incident. teamId, customerId and escalationPolicyId must name records of the caller's " +
          "organization: another organization's (or an unknown) id answers 422 invalidTeamId, invalidCustomerId or " +
          'imRoutingInvalidPolicyId.',
        body: CreateIncidentBody,
        status: 201,
        response: one,
        errors: [...IM_GATE_ERRORS, 'invalidTeamId', 'invalidCustomerId', 'imRoutingInvalidPolicyId'],
        handler: async ({ actor, body }) => presentImIncidentTo(use.acts, actor, await use.createImIncident.execute(actor, body)),
      })
      .route({
        operationId: 'bulkImIncidentAction',
        method: 'post',
        path: '/api/im/incidents/bulk',
        tags,
        summary: 'Acknowledge or resolve many IM incidents',
        description:
          "All or none. Resolving needs membership of every incident's team: otherwise 403 imTeamMembershipRequired " +
          'refuses the whole bulk and lists data.deniedIncidentIds. Acknowledging stays open to every IM user. Any other ' +
          'refusal (closed incident, unreachable status, lost race) also refuses the whole bulk and names data.incidentId.',
        body: BulkBody,
        response: z.object({ items: z.array(ImIncidentSchema) }),
        errors: [...CHANGE_ERRORS, 'imTeamMembershipRequired', 'imIncidentInvalidStatusTransition'],
        handler: async ({ actor, body }) => ({
          items: await presentImIncidentsTo(use.acts, actor, await use.bulkImIncidentAction.execute(actor, body.action, body.incidentIds)),
        }),
      })
      .route({
        operationId: 'getImIncident',
        method: 'get',
        path: '/api/im/incidents/{id}',
        tags,
        summary: 'Get an IM incident with its timeline',
        description: "Another organization's incident answers 404 imIncidentNotFound, as a missing one does.",
        params: IncidentParams,
        response: ImIncidentWithTimelineSchema,
        errors: [...IM_GATE_ERRORS, 'imIncidentNotFound'],
        handler: async ({ actor, params }) => {
          const { incident, timeline } = await use.getImIncident.execute(actor, params.id);
          return { ...(await presentImIncidentTo(use.acts, actor, incident)), timeline: timeline.map(presentTimelineEntry) };
        },
      })
      .route({
        operationId: 'acknowledgeImIncident',
        method: 'post',
        path: '/api/im/incidents/{id}/acknowledge',
        tags,
        summary: 'Acknowledge an IM incident',
        description: `Open to every IM user. Escalation stops. An acknowledged incident answers imIncidentInvalidStatusTransition. An incident routed from a monitor (monitorOrigin) acknowledges the monitor's incident too, and resolving it resolves that incident. ${CONFLICT_NOTE}`,
        params: IncidentParams,
        response: one,
        errors: [...CHANGE_ERRORS, 'imIncidentInvalidStatusTransition'],
        handler: async ({ actor, params }) =>
          presentImIncidentTo(use.acts, actor, await use.acknowledgeImIncident.execute(actor, params.id)),
      })
      .route({
        operationId: 'changeImIncidentStatus',
        method: 'post',
        path: '/api/im/incidents/{id}/status',
        tags,
        summary: 'Change the status of an IM incident',
        description:
          'Between open statuses: triggered -> acknowledged, acknowledged -> triggered (re-triggers). A target of ' +
          `resolved or merged, or the current status, answers 422 imIncidentInvalidStatusTransition. ${MEMBERS_NOTE} ${CONFLICT_NOTE}`,
        params: IncidentParams,
        body: StatusBody,
        response: one,
        errors: [...CHANGE_ERRORS, 'imIncidentInvalidStatusTransition', 'imTeamMembershipRequired'],
        handler: async ({ actor, params, body }) =>
          presentImIncidentTo(use.acts, actor, await use.changeImIncidentStatus.execute(actor, params.id, body.status)),
      })
      .route({
        operationId: 'resolveImIncident',
        method: 'post',
        path: '/api/im/incidents/{id}/resolve',
        tags,
        summary: 'Resolve an IM incident',
        description: `A resolved or merged incident answers 422 imIncidentAlreadyClosed. ${MEMBERS_NOTE} ${CONFLICT_NOTE}`,
        params: IncidentParams,
        response: one,
        errors: [...CHANGE_ERRORS, 'imTeamMembershipRequired'],
        handler: async ({ actor, params }) => presentImIncidentTo(use.acts, actor, await use.resolveImIncident.execute(actor, params.id)),
      })
      .route({
        operationId: 'snoozeImIncident',
        method: 'post',
        path: '/api/im/incidents/{id}/snooze',
        tags,
        summary: 'Snooze an IM incident',
        description:
          'Pauses paging until snoozedUntil (in the future, at most 7 days ahead: 400 imSnoozeRangeInvalid); the status ' +
          `is unchanged. ${MEMBERS_NOTE} ${CONFLICT_NOTE}`,
        params: IncidentParams,
        body: SnoozeBody,
        response: one,
        errors: [...CHANGE_ERRORS, 'imSnoozeRangeInvalid', 'imTeamMembershipRequired'],
        handler: async ({ actor, params, body }) =>
          presentImIncidentTo(use.acts, actor, await use.snoozeImIncident.execute(actor, params.id, body.snoozedUntil)),
      })
      .route({
        operationId: 'addImIncidentResponder',
        method: 'post',
        path: '/api/im/incidents/{id}/responders',
        tags,
        summary: 'Add a responder to an IM incident',
        description:
          'Records a `responderAdded` timeline entry (details.userId, details.notified). The user must be an IM user of the ' +
          'organization: active, not customer-bound, role admin, editor or responder (400 imUserNotEligible otherwise, also for ' +
          "another organization's user). With notify true the responder is paged by e-mail through the delivery ledger, which " +
          "needs an admin of the incident's team, an organization admin or a platform admin (403 imTeamAdminRequired for a plain " +
          `member; an incident routed to no team may be paged by any IM user). ${MEMBERS_NOTE} A resolved or merged incident answers ` +
          `422 imIncidentAlreadyClosed. ${CONFLICT_NOTE}`,
        params: IncidentParams,
        body: ResponderBody,
        response: one,
        errors: [...CHANGE_ERRORS, 'imTeamMembershipRequired', 'imTeamAdminRequired', 'imUserNotEligible'],
        handler: async ({ actor, params, body }) =>
          presentImIncidentTo(use.acts, actor, await use.addImIncidentResponder.execute(actor, params.id, body)),
      })
      .route({
        operationId: 'mergeImIncidents',
        method: 'post',
        path: '/api/im/incidents/{id}/merge',
        tags,
        summary: 'Merge IM incidents into this one',
        description:
          'The sources become merged (closed, mergedIntoId set) and their occurrences count here; all or none. Every ' +
          'incident involved must be open (imIncidentAlreadyClosed); merging an incident into itself is ' +
          `imIncidentInvalidStatusTransition. ${MEMBERS_NOTE} A refusal for membership lists data.deniedIncidentIds. ${CONFLICT_NOTE}`,
        params: IncidentParams,
        body: MergeBody,
        response: one,
        errors: [...CHANGE_ERRORS, 'imIncidentInvalidStatusTransition', 'imTeamMembershipRequired'],
        handler: async ({ actor, params, body }) =>
          presentImIncidentTo(use.acts, actor, await use.mergeImIncidents.execute(actor, params.id, body.sourceIncidentIds)),
      })
      .route({
        operationId: 'retryImOutboundDelivery',
        method: 'post',
        path: '/api/im/outbound/{id}/retry',
        tags,
        summary: 'Retry a failed outbound IM page',
        description:
          'Puts a failed page (a delivery of the delivery ledger whose event starts with `im.`, such as an escalation or ' +
          'responder page; its id is the delivery id) back in the queue: the worker sends it once more at once, the earlier ' +
          "attempts stay in its history. A missing page, another organization's or a delivery that is no IM page answers 404 " +
          'imOutboundNotFound; a pending or delivered one 409 imOutboundNotFailed (data.status). At most 10 retries per minute per ' +
          "integration, an integration being the organization's outbound kind (email, sms, webhook): 429 " +
          'imOutboundRetryRateLimited with data.retryAfter in seconds.',
        params: OutboundParams,
        response: OutboundDeliverySchema,
        errors: [...IM_GATE_ERRORS, 'imOutboundNotFound', 'imOutboundNotFailed', 'imOutboundRetryRateLimited'],
        handler: async ({ actor, params }) => use.retryImOutbound.execute(actor, params.id),
      }).router;
  },
);
