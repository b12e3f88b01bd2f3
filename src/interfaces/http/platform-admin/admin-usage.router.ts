import { GetPlatformUsage } from '../../../application/platform-admin/get-platform-usage';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { STAFF_NOTE } from './admin-organizations.router';
import { AdminUsageQuery, PlatformUsageSchema } from './schemas';

const tags = ['Platform administration'] as const;

/** Platform-wide usage for the platform staff. */
export const adminUsageRouter = defineRouter({ getPlatformUsage: GetPlatformUsage }, (deps, use) => {
  return new ApiRouter(deps).route({
    operationId: 'getPlatformUsage',
    method: 'get',
    path: '/api/admin/usage',
    tags,
    summary: 'Platform totals and the organizations using the most',
    description:
      'Totals (organizations by status, customers, users, monitors by kind, checks in the last 24 hours, ' +
      `SMS this month) and the top organizations by monitors, checks per day and SMS. ${STAFF_NOTE}`,
    query: AdminUsageQuery,
    response: PlatformUsageSchema,
    errors: ['platformAdminRequired', 'customerScopedTokenForbidden'],
    handler: async ({ actor, query }) => use.getPlatformUsage.execute(actor, query),
  }).router;
});
