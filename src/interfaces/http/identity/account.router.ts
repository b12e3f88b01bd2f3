import { z } from 'zod';
import { AccountDeletion } from '../../../application/identity/account-deletion';
import type { AccountDeletionRequest } from '../../../domain/identity/account-deletion';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';

const tags = ['Account deletion'] as const;
const DeletionSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    organizationId: z.number().int(),
    status: z.enum(['requested', 'withdrawn', 'completed']),
    requestedAt: z.iso.datetime(),
    effectiveAt: z.iso.datetime(),
    withdrawnAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'AccountDeletionRequest' });
const IdParams = z.object({ id: z.string().min(1).max(64) });

const present = (r: AccountDeletionRequest) => ({
  id: r.id,
  userId: r.userId,
  organizationId: r.organizationId,
  status: r.status,
  requestedAt: r.requestedAt.toISOString(),
  effectiveAt: r.effectiveAt.toISOString(),
  withdrawnAt: r.withdrawnAt?.toISOString() ?? null,
});

const DESCRIPTION =
  'The account is deleted 30 days after the request and the request can be withdrawn until then. ' +
  'Administrators are notified on request and withdrawal. The last active administrator cannot request it ' +
  '(accountDeletionSoleOwner, data.organizationId).';

/** Self-service under /api/account, and administrators acting for a user under /api/users/{id}. */
export const accountRouter = defineRouter({ accountDeletion: AccountDeletion }, (deps, use) => {
  const deletion = () => use.accountDeletion;
  const router = new ApiRouter(deps);
  for (const scope of ['self', 'user'] as const) {
    const path = scope === 'self' ? '/api/account/deletion-request' : '/api/users/{id}/deletion-request';
    const params = scope === 'user' ? IdParams : undefined;
    const ids =
      scope === 'self'
        ? { get: 'getAccountDeletionRequest', request: 'requestAccountDeletion', withdraw: 'withdrawAccountDeletionRequest' }
        : { get: 'getUserDeletionRequest', request: 'requestUserDeletion', withdraw: 'withdrawUserDeletionRequest' };
    const account = scope === 'self' ? 'your account' : "a user's account (administrators)";
    const userId = (p: unknown) => (p as { id?: string } | undefined)?.id;
    router
      .route({
        operationId: ids.get,
        method: 'get',
        path,
        tags,
        params,
        summary: `The pending deletion request of ${account}, if any`,
        response: z.object({ request: DeletionSchema.nullable() }),
        errors: ['accountDeletionUserNotFound'],
        handler: async ({ actor, params: p }) => {
          const request = await deletion().status(actor, userId(p));
          return { request: request ? present(request) : null };
        },
      })
      .route({
        operationId: ids.request,
        method: 'post',
        path,
        tags,
        params,
        status: 202,
        summary: `Request the deletion of ${account}`,
        description: DESCRIPTION,
        response: DeletionSchema,
        errors: ['accountDeletionSoleOwner', 'accountDeletionUserNotFound'],
        handler: async ({ actor, params: p }) => present(await deletion().request(actor, userId(p))),
      })
      .route({
        operationId: ids.withdraw,
        method: 'delete',
        path,
        tags,
        params,
        summary: `Withdraw the deletion request of ${account}`,
        response: DeletionSchema,
        errors: ['accountDeletionNotRequested', 'accountDeletionUserNotFound', 'accountDeletionNotRecorded'],
        handler: async ({ actor, params: p }) => present(await deletion().withdraw(actor, userId(p))),
      });
  }
  return router.router;
});
