import { z } from 'zod';
import { ROLES } from '../../../domain/identity/role';
import { UserAdministration } from '../../../application/identity/user-administration';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { presentUser } from './presenters';
import { Email, Password, SuccessSchema, UserSchema } from './schemas';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['Users'] as const;
const IdParams = z.object({ id: z.string().min(1).max(64) });

export const usersRouter = defineRouter({ userAdministration: UserAdministration }, (deps, use) => {
  const users = () => use.userAdministration;
  return new ApiRouter(deps)
    .route({
      operationId: 'listUsers',
      method: 'get',
      path: '/api/users',
      tags,
      summary: 'Users of the organization',
      query: PageOnlyQuery,
      response: pagedSchema(UserSchema, 'UserPage'),
      errors: ['customerScopedTokenForbidden'],
      handler: async ({ actor, query }) =>
        pageOf(
          (await users().list(actor)).map((u) => presentUser(u)),
          query,
        ),
    })
    .route({
      operationId: 'createUser',
      method: 'post',
      path: '/api/users',
      tags,
      status: 201,
      summary: 'Create a user (admins only)',
      description: 'A user with a customerId is customer-bound: confined to that customer like a customer token.',
      body: z
        .object({
          name: z.string().trim().min(1).max(200),
          email: Email,
          password: Password,
          role: z.enum(ROLES),
          customerId: z.number().int().positive().nullable().optional(),
        })
        .strict(),
      response: UserSchema,
      errors: ['roleForbidden', 'emailAlreadyRegistered', 'invalidCustomer', 'customerScopedTokenForbidden'],
      handler: async ({ actor, body }) => presentUser(await users().create(actor, body)),
    })
    .route({
      operationId: 'getUser',
      method: 'get',
      path: '/api/users/{id}',
      tags,
      summary: 'One user',
      params: IdParams,
      response: UserSchema,
      errors: ['userNotFound'],
      handler: async ({ actor, params }) => presentUser(await users().get(actor, params.id)),
    })
    .route({
      operationId: 'updateUser',
      method: 'patch',
      path: '/api/users/{id}',
      tags,
      summary: 'Change a user (admins only)',
      description: 'Deactivating a user or changing their password ends their sessions.',
      params: IdParams,
      body: z
        .object({
          name: z.string().trim().min(1).max(200).optional(),
          role: z.enum(ROLES).optional(),
          isActive: z.boolean().optional(),
          password: Password.optional(),
        })
        .strict(),
      response: UserSchema,
      errors: ['roleForbidden', 'userNotFound', 'userSelfChangeForbidden', 'lastAdminProtected', 'globalUserProtected'],
      handler: async ({ actor, params, body }) => presentUser(await users().update(actor, params.id, body)),
    })
    .route({
      operationId: 'deleteUser',
      method: 'delete',
      path: '/api/users/{id}',
      tags,
      summary: 'Delete a user (admins only)',
      params: IdParams,
      response: SuccessSchema,
      errors: ['roleForbidden', 'userNotFound', 'userSelfChangeForbidden', 'lastAdminProtected', 'globalUserProtected'],
      handler: async ({ actor, params }) => {
        await users().remove(actor, params.id);
        return { success: true };
      },
    })
    .route({
      operationId: 'resetUserTwoFactor',
      method: 'post',
      path: '/api/users/{id}/mfa/reset',
      tags,
      summary: 'Turn off two-step verification for a user (admins, signed in)',
      params: IdParams,
      response: UserSchema,
      errors: ['nonUserSessionForbidden', 'roleForbidden', 'userNotFound', 'globalUserProtected'],
      handler: async ({ actor, params }) => presentUser(await users().resetMfa(actor, params.id)),
    }).router;
});
