import { z } from 'zod';
import { ValidateVatId } from '../../../application/identity/validate-vat-id';

const VatValidationSchema = z
  .object({
    valid: z.boolean(),
    countryCode: z.string().meta({ description: 'The member state as VIES names it (EL for Greece)' }),
    number: z.string().meta({ description: 'The number without its country prefix' }),
    name: z.string().nullable().meta({ description: 'The registered name, where disclosed' }),
    address: z.string().nullable().meta({ description: 'The registered address, where disclosed' }),
    checkedAt: z.iso.datetime(),
  })
  .meta({ id: 'VatValidation' });
import { OrganizationSettings } from '../../../application/identity/organization-settings';
import { ApiRouter } from '../shared/api-router';
import { PageQuery, paged, pagedSchema } from '../shared/paging';
import { defineRouter } from '../shared/router-deps';
import { presentOrganization } from './presenters';
import { AccentColor, BrandLogo, Email, OrganizationSchema } from './schemas';

const tags = ['Organization'] as const;
const RefParams = z.object({ id: z.string().min(1).max(64).meta({ description: 'publicId or legacy integer id' }) });

export const organizationRouter = defineRouter(
  { organizationSettings: OrganizationSettings, validateVatId: ValidateVatId },
  (deps, use) => {
    const organizations = () => use.organizationSettings;
    return new ApiRouter(deps)
      .route({
        operationId: 'getCurrentOrganization',
        method: 'get',
        path: '/api/organization',
        tags,
        summary: "The caller's organization",
        response: OrganizationSchema,
        handler: async ({ actor }) => presentOrganization(await organizations().own(actor)),
      })
      .route({
        operationId: 'updateCurrentOrganization',
        method: 'patch',
        path: '/api/organization',
        tags,
        summary: 'Change the organization (admins only)',
        description:
          'The requireMfa* flags can only be set by a signed-in user, never by a token (nonUserSessionForbidden). ' +
          "name, accentColor and logo are what the console shows on the organization's active white-label hosts (GET /api/branding).",
        body: z
          .object({
            name: z.string().trim().min(1).max(200).optional(),
            vatId: z.string().trim().max(32).nullable().optional(),
            countryCode: z
              .string()
              .regex(/^[A-Z]{2}$/)
              .nullable()
              .optional(),
            billingEmail: Email.nullable().optional(),
            requireMfaAdmins: z.boolean().optional(),
            requireMfaEditors: z.boolean().optional(),
            requireMfaReadonly: z.boolean().optional(),
            accentColor: AccentColor.optional(),
            logo: BrandLogo.optional(),
          })
          .strict(),
        response: OrganizationSchema,
        errors: ['roleForbidden', 'nonUserSessionForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor, body }) => presentOrganization(await organizations().update(actor, body)),
      })
      .route({
        operationId: 'listOrganizations',
        method: 'get',
        path: '/api/organizations',
        tags,
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
        method: 'get',
        path: '/api/organizations/{id}',
        tags,
        summary: 'One organization',
        params: RefParams,
        response: OrganizationSchema,
        errors: ['organizationNotFound'],
        handler: async ({ actor, params }) => presentOrganization(await organizations().get(actor, params.id)),
      })
      .route({
        operationId: 'updateOrganizationBilling',
        method: 'patch',
        path: '/api/organizations/{id}/billing',
        tags,
        summary: 'Change the billing email',
        params: RefParams,
        body: z.object({ billingEmail: Email }).strict(),
        response: z.object({ id: z.number().int(), publicId: z.uuid(), billingEmail: z.string().nullable() }),
        errors: ['organizationNotFound', 'roleForbidden'],
        handler: async ({ actor, params, body }) => {
          const organization = await organizations().updateBilling(actor, params.id, body.billingEmail);
          return { id: organization.id, publicId: organization.publicId, billingEmail: organization.billingEmail };
        },
      })
      .route({
        operationId: 'validateOrganizationVatId',
        method: 'post',
        path: '/api/organizations/{id}/vat-id/validate',
        tags,
        summary: 'Validate the VAT id against VIES',
        description:
          "Looks the organization's vatId up in the EU's VIES service (VIES_URL) and keeps the answer on the " +
          'organization: valid or not, with the registered name and address where the member state discloses them. The ' +
          "member state comes from the vatId's prefix (DE123456789; GR is EL there) or else from countryCode. " +
          'Administrators of the organization and platform administrators; 10 lookups an hour per organization (429 ' +
          'rateLimited, data.retryAfter). 422 vatIdMissing without a vatId; 503 unavailable when VIES or the member ' +
          'state cannot answer now (retry later); 409 vatIdChangedDuringValidation when vatId or countryCode were edited ' +
          'during the lookup (nothing stored; retry).',
        params: RefParams,
        response: VatValidationSchema,
        errors: [
          'organizationNotFound',
          'roleForbidden',
          'rateLimited',
          'vatIdMissing',
          'invalidRequestBody',
          'unavailable',
          'vatIdChangedDuringValidation',
        ],
        handler: async ({ actor, params }) => {
          const v = await use.validateVatId.execute(actor, params.id);
          return { ...v, checkedAt: v.checkedAt.toISOString() };
        },
      }).router;
  },
);
