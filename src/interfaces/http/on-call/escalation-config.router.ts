import { ListEscalationPolicies } from '../../../application/on-call/list-escalation-policies';
import { GetEscalationPolicy } from '../../../application/on-call/get-escalation-policy';
import { CreateEscalationPolicy } from '../../../application/on-call/create-escalation-policy';
import { UpdateEscalationPolicy } from '../../../application/on-call/update-escalation-policy';
import { DeleteEscalationPolicy } from '../../../application/on-call/delete-escalation-policy';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { CreatePolicyBody, PolicySchema, UpdatePolicyBody } from './escalation.schemas';
import { IdParams } from './schemas';
import { presentPolicy } from './presenters';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['Escalation policies'] as const;
const TARGETS_NOTE =
  "Targets must be the organization's: userNotFound, imScheduleNotFound or imTeamNotFound otherwise. " +
  'Admins and editors (roleForbidden for responders).';

/** /api/escalation-config: escalation policies (customer-scoped tokens are refused before routing). */
export const escalationConfigRouter = defineRouter(
  {
    listEscalationPolicies: ListEscalationPolicies,
    createEscalationPolicy: CreateEscalationPolicy,
    getEscalationPolicy: GetEscalationPolicy,
    updateEscalationPolicy: UpdateEscalationPolicy,
    deleteEscalationPolicy: DeleteEscalationPolicy,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listEscalationPolicies',
        method: 'get',
        path: '/api/escalation-config',
        tags,
        summary: 'List escalation policies',
        query: PageOnlyQuery,
        response: pagedSchema(PolicySchema, 'EscalationPolicyPage'),
        handler: async ({ actor, query }) => pageOf((await use.listEscalationPolicies.execute(actor)).map(presentPolicy), query),
      })
      .route({
        operationId: 'createEscalationPolicy',
        method: 'post',
        path: '/api/escalation-config',
        tags,
        status: 201,
        summary: 'Create an escalation policy',
        description:
          'Levels are paged in order until someone acknowledges: level 1 when the incident opens, each next level ' +
          "when the previous one's delayMinutes pass unacknowledged; after the last level the chain runs again repeatCount " +
          `times. ${TARGETS_NOTE}`,
        body: CreatePolicyBody,
        response: PolicySchema,
        errors: ['userNotFound', 'imScheduleNotFound', 'imTeamNotFound', 'roleForbidden'],
        handler: async ({ actor, body }) => presentPolicy(await use.createEscalationPolicy.execute(actor, body)),
      })
      .route({
        operationId: 'getEscalationPolicy',
        method: 'get',
        path: '/api/escalation-config/{id}',
        tags,
        summary: 'Get an escalation policy',
        params: IdParams,
        response: PolicySchema,
        errors: ['escalationPolicyNotFound'],
        handler: async ({ actor, params }) => presentPolicy(await use.getEscalationPolicy.execute(actor, params)),
      })
      .route({
        operationId: 'updateEscalationPolicy',
        method: 'patch',
        path: '/api/escalation-config/{id}',
        tags,
        summary: 'Change an escalation policy',
        description: `levels, when sent, replace every level. ${TARGETS_NOTE}`,
        params: IdParams,
        body: UpdatePolicyBody,
        response: PolicySchema,
        errors: ['escalationPolicyNotFound', 'userNotFound', 'imScheduleNotFound', 'imTeamNotFound', 'roleForbidden', 'conflict'],
        handler: async ({ actor, params, body }) =>
          presentPolicy(await use.updateEscalationPolicy.execute(actor, { id: params.id, change: body })),
      })
      .route({
        operationId: 'deleteEscalationPolicy',
        method: 'delete',
        path: '/api/escalation-config/{id}',
        tags,
        summary: 'Delete an escalation policy',
        params: IdParams,
        errors: ['escalationPolicyNotFound', 'roleForbidden'],
        handler: async ({ actor, params }) => {
          await use.deleteEscalationPolicy.execute(actor, params);
        },
      }).router;
  },
);
