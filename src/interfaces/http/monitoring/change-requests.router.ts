import { z } from 'zod';
import { ListChangeRequests } from '../../../application/monitoring/list-change-requests';
import { SettleChangeRequest } from '../../../application/monitoring/settle-change-request';
import { CHANGE_REQUEST_STATUSES } from '../../../domain/monitoring/change-request';
import { ApiRouter } from '../shared/api-router';
import { paged, pagedSchema } from '../shared/paging';
import { defineRouter } from '../shared/router-deps';
import { presentChangeRequest } from './presenters';
import { ChangeRequestSchema } from './response.schemas';

const tags = ['Change requests'] as const;

/** Listing and settling change requests. */
export const changeRequestsRouter = defineRouter(
  { listChangeRequests: ListChangeRequests, settleChangeRequest: SettleChangeRequest },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listChangeRequests',
        method: 'get',
        path: '/api/change-requests',
        tags,
        summary: 'Change requests, newest first',
        description: "Customer-scoped callers see their customer's requests only. Filters: status, customerId.",
        query: z
          .object({
            page: z.coerce.number().int().min(1).max(1_000_000).default(1),
            perPage: z.coerce.number().int().min(1).max(200).default(50),
            status: z.enum(CHANGE_REQUEST_STATUSES).optional(),
            customerId: z
              .string()
              .regex(/^([1-9]\d{0,9}|[0-9a-fA-F-]{36})$/)
              .optional(),
          })
          .strict(),
        response: pagedSchema(ChangeRequestSchema, 'ChangeRequestPage'),
        handler: async ({ actor, query }) => {
          const { page, perPage, ...filter } = query;
          const result = await use.listChangeRequests.execute(actor, { filter, page: { page, perPage } });
          return paged(result.items.map(presentChangeRequest), result.total, { page, perPage });
        },
      })
      .route({
        operationId: 'decideChangeRequest',
        method: 'patch',
        path: '/api/change-requests/{id}',
        tags,
        summary: 'Approve, reject or cancel a change request',
        description:
          "approved applies the change (or deletes the monitor) with the approver's rights, atomically with the decision; " +
          'if the change no longer validates, the request stays open and the validation code is answered. rejected drops it. ' +
          'Organization admins and editors approve or reject; the customer side may only cancel. Settling twice answers ' +
          'changeRequestAlreadySettled.',
        params: z.object({ id: z.string().min(1).max(64) }),
        body: z
          .object({ status: z.enum(['approved', 'rejected', 'cancelled']), note: z.string().trim().max(2000).nullable().optional() })
          .strict(),
        response: ChangeRequestSchema,
        errors: [
          'changeRequestNotFound',
          'changeRequestAlreadySettled',
          'roleForbidden',
          'managementTypeOrgOnly',
          'selfServiceQuotaReached',
          'websiteNotFound',
          'monitorNotFound',
          'conflict',
        ],
        handler: async ({ actor, params, body }) =>
          presentChangeRequest(await use.settleChangeRequest.execute(actor, { ref: params.id, ...body })),
      }).router;
  },
);
