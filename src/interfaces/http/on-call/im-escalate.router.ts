import { z } from 'zod';
import { EscalateImIncidentNow } from '../../../application/on-call/escalate-im-incident-now';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { CHANGE_ERRORS, CONFLICT_NOTE, MEMBERS_NOTE } from '../incident-management/im-incidents.router';
import { ImIncidentSchema, IncidentParams } from '../incident-management/schemas';
import { presentImIncidentTo } from '../incident-management/presenters';
import { ImIncidentActsOf } from '../../../application/incident-management/im-incident-acts';

const tags = ['IM incidents'] as const;

/**
 * "Escalate now" on an IM incident: the on-call context pages the next level of the incident's
 * escalation policy, so the route is on-call's, beside the incident routes of incident management
 * (which knows nothing of escalation policies).
 */
export const imEscalateRouter = defineRouter({ escalateImIncidentNow: EscalateImIncidentNow, acts: ImIncidentActsOf }, (deps, use) => {
  const one = z.object({ ...ImIncidentSchema.shape });
  return new ApiRouter(deps).route({
    operationId: 'escalateImIncident',
    method: 'post',
    path: '/api/im/incidents/{id}/escalate',
    tags,
    summary: 'Escalate an IM incident now',
    description:
      "Pages the next level of the incident's escalation policy at once, as the escalation job would when its delay " +
      'ends (the job does not page that level again; later levels keep their times). Past the end of the chain, or once an ' +
      'acknowledgement stopped it, the last level is paged again. An incident without a policy pages no one. The timeline ' +
      'records an `escalated` entry (details.level: the level paged or null; details.pages: messages sent). A resolved or ' +
      `merged incident answers 422 imIncidentAlreadyClosed. ${MEMBERS_NOTE} ${CONFLICT_NOTE}`,
    params: IncidentParams,
    response: one,
    errors: [...CHANGE_ERRORS, 'imTeamMembershipRequired'],
    handler: async ({ actor, params }) => presentImIncidentTo(use.acts, actor, await use.escalateImIncidentNow.execute(actor, params.id)),
  });
});
