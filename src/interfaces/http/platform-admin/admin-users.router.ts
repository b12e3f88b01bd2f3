import { ListAdminUsers } from '../../../application/platform-admin/list-admin-users';
import { GetAdminUser } from '../../../application/platform-admin/get-admin-user';
import { ChangeUserActivation } from '../../../application/platform-admin/change-user-activation';
import type { Actor } from '../../../application/shared/actor';
import { ApiRouter } from '../shared/api-router';
import { paged } from '../shared/paging';
import { defineRouter } from '../shared/router-deps';
import { STAFF_NOTE } from './admin-organizations.router';
import { presentAdminUser, presentAdminUserDetail } from './presenters';
import { AdminUserDetailSchema, AdminUsersPage, AdminUsersQuery, UserIdParams } from './schemas';

const tags = ['Platform administration'] as const;
const ACTION_NOTE = 'Platform admins only (signed in); supporters, like everyone else, answer 403 platformAdminRequired.';

/** The platform staff's view of users, and the platform admins' deactivation of an account. */
export const adminUsersRouter = defineRouter(
  { changeUserActivation: ChangeUserActivation, listAdminUsers: ListAdminUsers, getAdminUser: GetAdminUser },
  (deps, use) => {
    const setActive = (actor: Actor, id: string, isActive: boolean) =>
      use.changeUserActivation.execute(actor, { id, isActive }).then(presentAdminUserDetail);
    return new ApiRouter(deps)
      .route({
        operationId: 'listAdminUsers',
        method: 'get',
        path: '/api/admin/users',
        tags,
        summary: 'Users of every organization',
        description: `Searched by email or name, filtered by organization, role and isActive, sorted and paged. ${STAFF_NOTE}`,
        query: AdminUsersQuery,
        response: AdminUsersPage,
        errors: ['platformAdminRequired', 'customerScopedTokenForbidden'],
        handler: async ({ actor, query }) => {
          const { items, total } = await use.listAdminUsers.execute(actor, query);
          return paged(items.map(presentAdminUser), total, query);
        },
      })
      .route({
        operationId: 'getAdminUser',
        method: 'get',
        path: '/api/admin/users/{id}',
        tags,
        summary: 'One user of any organization',
        description: `With the number of signed-in sessions open now. ${STAFF_NOTE}`,
        params: UserIdParams,
        response: AdminUserDetailSchema,
        errors: ['userNotFound', 'platformAdminRequired', 'customerScopedTokenForbidden'],
        handler: async ({ actor, params }) => presentAdminUserDetail(await use.getAdminUser.execute(actor, params)),
      })
      .route({
        operationId: 'deactivateAdminUser',
        method: 'post',
        path: '/api/admin/users/{id}/deactivate',
        tags,
        summary: 'Deactivate a user and end their sessions',
        description:
          'The user, and every token they minted, is refused from then on (403 accountDeactivated). The ' +
          "organization's last active admin is protected (lastAdminProtected) and nobody deactivates themselves " +
          `(userSelfChangeForbidden). Deactivating an inactive user changes nothing. ${ACTION_NOTE}`,
        params: UserIdParams,
        response: AdminUserDetailSchema,
        errors: ['userNotFound', 'userSelfChangeForbidden', 'lastAdminProtected', 'platformAdminRequired', 'customerScopedTokenForbidden'],
        handler: ({ actor, params }) => setActive(actor, params.id, false),
      })
      .route({
        operationId: 'reactivateAdminUser',
        method: 'post',
        path: '/api/admin/users/{id}/reactivate',
        tags,
        summary: 'Reactivate a deactivated user',
        description: `They sign in again with their password. ${ACTION_NOTE}`,
        params: UserIdParams,
        response: AdminUserDetailSchema,
        errors: ['userNotFound', 'platformAdminRequired', 'customerScopedTokenForbidden'],
        handler: ({ actor, params }) => setActive(actor, params.id, true),
      }).router;
  },
);
