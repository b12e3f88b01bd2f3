import { z } from 'zod';
import { OrganizationSettings } from '../../../application/identity/organization-settings';
import { ApiRouter } from '../shared/api-router';
import { PageQuery, paged, pagedSchema } from '../shared/paging';
import type { RouterDeps } from '../shared/router-deps';
import { presentOrganization } from './presenters';
import { Email, OrganizationSchema } from './schemas';

const tags = ['Organization'] as const;
const RefParams = z.object({ id: z.string().min(1).max(64).meta({ description: 'publicId or legacy integer id' }) });

export function organizationRouter(deps: RouterDeps) {
  const organizations = () => deps.container.get(OrganizationSettings);
  return new ApiRouter(deps)
    .route({
      operationId: 'getCurrentOrganization',
      method: 'get', path: '/api/organization', tags, summary: 'The caller\'s organization',
      response: OrganizationSchema,
      handler: async ({ actor }) => presentOrganization(await organizations().own(actor)),
    })
    .route({
      operationId: 'updateCurrentOrganization',
      method: 'patch', path: '/api/organization', tags, summary: 'Change the organization (admins only)',
      description: 'The requireMfa* flags can only be set by a signed-in user, never by a token (nonUserSessionForbidden).',
      body: z.object({
        name: z.string().trim().min(1).max(200).optional(),
        vatId: z.string().trim().max(32).nullable().optional(),
        countryCode: z.string().regex(/^[A-Z]{2}$/).nullable().optional(),
        billingEmail: Email.nullable().optional(),
        requireMfaAdmins: z.boolean().optional(),
        requireMfaEditors: z.boolean().optional(),
        requireMfaReadonly: z.boolean().optional(),
      }).strict(),
      response: OrganizationSchema,
      errors: ['roleForbidden', 'nonUserSessionForbidden', 'customerScopedTokenForbidden'],
      handler: async ({ actor, body }) => presentOrganization(await organizations().update(actor, body)),
    })
    .route({
      operationId: 'listOrganizations',
      method: 'get', path: '/api/organizations', tags,
      summary: 'Organizations visible to the caller (all of them for platform staff)',
      query: z.object({ ...PageQuery }).strict(),
      response: pagedSchema(OrganizationSchema, 'OrganizationPage'),
      handler: async ({ actor, query }) => {
        const { items, total } = await organizations().list(actor, query);
        return paged(items.map(presentOrganization), total, query);
      },
    })
    .route({
      operationId: 'getOrganization',
      method: 'get', path: '/api/organizations/{id}', tags, summary: 'One organization', params: RefParams,
      response: OrganizationSchema, errors: ['organizationNotFound'],
      handler: async ({ actor, params }) => presentOrganization(await organizations().get(actor, params.id)),
    })
    .route({
      operationId: 'updateOrganizationBilling',
      method: 'patch', path: '/api/organizations/{id}/billing', tags, summary: 'Change the billing email',
      params: RefParams,
      body: z.object({ billingEmail: Email }).strict(),
      response: z.object({ id: z.number().int(), publicId: z.uuid(), billingEmail: z.string().nullable() }),
      errors: ['organizationNotFound', 'roleForbidden'],
      handler: async ({ actor, params, body }) => {
        const organization = await organizations().updateBilling(actor, params.id, body.billingEmail);
        return { id: organization.id, publicId: organization.publicId, billingEmail: organization.billingEmail };
      },
    }).router;
}
