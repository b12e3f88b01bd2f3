import { ListAdminOrganizations } from '../../../application/platform-admin/list-admin-organizations';
import { GetAdminOrganization } from '../../../application/platform-admin/get-admin-organization';
import { ApiRouter } from '../shared/api-router';
import { paged } from '../shared/paging';
import { defineRouter } from '../shared/router-deps';
import { presentAdminOrganization, presentAdminOrganizationDetail } from './presenters';
import { AdminOrganizationDetailSchema, AdminOrganizationsPage, AdminOrganizationsQuery, OrganizationRefParams } from './schemas';

const tags = ['Platform administration'] as const;
export const STAFF_NOTE =
  'Platform admins and supporters, signed in (not with a token); anyone else answers 403 ' +
  'platformAdminRequired, customer-bound callers 403 customerScopedTokenForbidden.';

/** The platform staff's view of organizations (read-only; status changes are PATCH /api/platform-admin/organizations/{id}). */
export const adminOrganizationsRouter = defineRouter(
  { listAdminOrganizations: ListAdminOrganizations, getAdminOrganization: GetAdminOrganization },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listAdminOrganizations',
        method: 'get',
        path: '/api/admin/organizations',
        tags,
        summary: 'Every organization, with its size',
        description: `Filtered by status, searched by name, billing email or custom domain, sorted and paged. ${STAFF_NOTE}`,
        query: AdminOrganizationsQuery,
        response: AdminOrganizationsPage,
        errors: ['platformAdminRequired', 'customerScopedTokenForbidden'],
        handler: async ({ actor, query }) => {
          const { items, total } = await use.listAdminOrganizations.execute(actor, query);
          return paged(items.map(presentAdminOrganization), total, query);
        },
      })
      .route({
        operationId: 'getAdminOrganization',
        method: 'get',
        path: '/api/admin/organizations/{id}',
        tags,
        summary: 'One organization with its usage',
        description:
          'Customers, members, monitors by kind, checks in the last 24 hours and 30 days, SMS this month, ' +
          `notification deliveries of the last 7 days, stored result rows and custom domains. ${STAFF_NOTE}`,
        params: OrganizationRefParams,
        response: AdminOrganizationDetailSchema,
        errors: ['organizationNotFound', 'platformAdminRequired', 'customerScopedTokenForbidden'],
        handler: async ({ actor, params }) =>
          presentAdminOrganizationDetail(await use.getAdminOrganization.execute(actor, { ref: params.id })),
      }).router;
  },
);
