import { ListImTeams } from '../../../application/on-call/list-im-teams';
import { GetImTeam } from '../../../application/on-call/get-im-team';
import { CreateImTeam } from '../../../application/on-call/create-im-team';
import { UpdateImTeam } from '../../../application/on-call/update-im-team';
import { DeleteImTeam } from '../../../application/on-call/delete-im-team';
import { SetImTeamMember } from '../../../application/on-call/set-im-team-member';
import { RemoveImTeamMember } from '../../../application/on-call/remove-im-team-member';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { CreateTeamBody, IdParams, MemberParams, SetMemberBody, TeamSchema, UpdateTeamBody } from './schemas';
import { presentTeam } from './presenters';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['On-call'] as const;
const WRITE_NOTE = 'Organization admins and admins of the team (imRole admin); anyone else answers imTeamWriteDenied.';

/** Incident-management teams and their membership (imRole). */
export const imTeamsRouter = defineRouter(
  {
    listImTeams: ListImTeams,
    createImTeam: CreateImTeam,
    getImTeam: GetImTeam,
    updateImTeam: UpdateImTeam,
    deleteImTeam: DeleteImTeam,
    setImTeamMember: SetImTeamMember,
    removeImTeamMember: RemoveImTeamMember,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listImTeams',
        method: 'get',
        path: '/api/im/teams',
        tags,
        summary: 'List teams',
        description: 'Every team of the organization with its members, by name.',
        query: PageOnlyQuery,
        response: pagedSchema(TeamSchema, 'TeamPage'),
        handler: async ({ actor, query }) => pageOf((await use.listImTeams.execute(actor)).map(presentTeam), query),
      })
      .route({
        operationId: 'createImTeam',
        method: 'post',
        path: '/api/im/teams',
        tags,
        status: 201,
        summary: 'Create a team',
        description:
          'Organization admins only (imTeamWriteDenied). Members are users of the organization (userNotFound with ' +
          'data.userIds otherwise), each with an imRole (default member).',
        body: CreateTeamBody,
        response: TeamSchema,
        errors: ['imTeamWriteDenied', 'userNotFound'],
        handler: async ({ actor, body }) => presentTeam(await use.createImTeam.execute(actor, body)),
      })
      .route({
        operationId: 'getImTeam',
        method: 'get',
        path: '/api/im/teams/{id}',
        tags,
        summary: 'Get a team',
        params: IdParams,
        response: TeamSchema,
        errors: ['imTeamNotFound'],
        handler: async ({ actor, params }) => presentTeam(await use.getImTeam.execute(actor, params)),
      })
      .route({
        operationId: 'updateImTeam',
        method: 'patch',
        path: '/api/im/teams/{id}',
        tags,
        summary: 'Rename a team',
        description: WRITE_NOTE,
        params: IdParams,
        body: UpdateTeamBody,
        response: TeamSchema,
        errors: ['imTeamNotFound', 'imTeamWriteDenied', 'conflict'],
        handler: async ({ actor, params, body }) => presentTeam(await use.updateImTeam.execute(actor, { id: params.id, change: body })),
      })
      .route({
        operationId: 'deleteImTeam',
        method: 'delete',
        path: '/api/im/teams/{id}',
        tags,
        summary: 'Delete a team',
        description: `Its schedules are deleted with it. ${WRITE_NOTE}`,
        params: IdParams,
        errors: ['imTeamNotFound', 'imTeamWriteDenied'],
        handler: async ({ actor, params }) => {
          await use.deleteImTeam.execute(actor, params);
        },
      })
      .route({
        operationId: 'setImTeamMember',
        method: 'put',
        path: '/api/im/teams/{id}/members/{userId}',
        tags,
        summary: 'Add a member or change their imRole',
        description: `userNotFound when the user is not the organization's. ${WRITE_NOTE}`,
        params: MemberParams,
        body: SetMemberBody,
        response: TeamSchema,
        errors: ['imTeamNotFound', 'imTeamWriteDenied', 'userNotFound', 'conflict'],
        handler: async ({ actor, params, body }) =>
          presentTeam(await use.setImTeamMember.execute(actor, { id: params.id, userId: params.userId, imRole: body.imRole })),
      })
      .route({
        operationId: 'removeImTeamMember',
        method: 'delete',
        path: '/api/im/teams/{id}/members/{userId}',
        tags,
        summary: 'Remove a member',
        description: `userNotFound when the user is not a member. ${WRITE_NOTE}`,
        params: MemberParams,
        response: TeamSchema,
        errors: ['imTeamNotFound', 'imTeamWriteDenied', 'userNotFound', 'conflict'],
        handler: async ({ actor, params }) => presentTeam(await use.removeImTeamMember.execute(actor, params)),
      }).router;
  },
);
