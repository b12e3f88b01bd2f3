import { z } from 'zod';
import { ApiTokens } from '../../../application/identity/api-tokens';
import { MAX_TOKEN_LIFETIME_DAYS } from '../../../domain/identity/api-token';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { presentApiToken } from './presenters';
import { ApiTokenSchema, SuccessSchema } from './schemas';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['API tokens'] as const;
const IdParams = z.object({ id: z.string().min(1).max(64) });
const Name = z.string().trim().min(1).max(100);
const ExpiresInDays = z.number().int().min(1).max(MAX_TOKEN_LIFETIME_DAYS);
const MintedSchema = ApiTokenSchema.extend({ token: z.string().meta({ description: 'wsm_ secret, shown once' }) }).meta({
  id: 'MintedApiToken',
});
const MUTATION_ERRORS = ['apiTokenCannotMintTokens', 'mfa_step_up_required'] as const;

/** Organization-wide tokens (act with the creator's role) and customer-scoped tokens. */
export const tokensRouter = defineRouter({ apiTokens: ApiTokens }, (deps, use) => {
  const tokens = () => use.apiTokens;
  return new ApiRouter(deps)
    .route({
      operationId: 'listOrganizationTokens',
      method: 'get',
      path: '/api/organization/tokens',
      tags,
      summary: 'Organization-wide tokens',
      description: 'Administrators see all of them; other users the ones they minted. Secrets are never shown again.',
      query: PageOnlyQuery,
      response: pagedSchema(ApiTokenSchema, 'OrganizationTokenPage'),
      handler: async ({ actor, query }) => pageOf((await tokens().list(actor, 'organization')).map(presentApiToken), query),
    })
    .route({
      operationId: 'createOrganizationToken',
      method: 'post',
      path: '/api/organization/tokens',
      tags,
      status: 201,
      summary: 'Mint an organization-wide token (signed-in users; step-up when two-step verification is on)',
      body: z.object({ name: Name, expiresInDays: ExpiresInDays.nullable().optional() }).strict(),
      response: MintedSchema,
      errors: [...MUTATION_ERRORS],
      handler: async ({ actor, body }) => {
        const { record, token } = await tokens().mint(actor, 'organization', body);
        return { ...presentApiToken(record), token };
      },
    })
    .route({
      operationId: 'renameOrganizationToken',
      method: 'patch',
      path: '/api/organization/tokens/{id}',
      tags,
      summary: 'Rename a token',
      params: IdParams,
      body: z.object({ name: Name }).strict(),
      response: ApiTokenSchema,
      errors: ['mfa_step_up_required', 'apiTokenNotFound'],
      handler: async ({ actor, params, body }) => presentApiToken(await tokens().rename(actor, 'organization', params.id, body.name)),
    })
    .route({
      operationId: 'revokeOrganizationToken',
      method: 'delete',
      path: '/api/organization/tokens/{id}',
      tags,
      summary: 'Revoke a token',
      params: IdParams,
      response: SuccessSchema,
      errors: ['mfa_step_up_required', 'apiTokenNotFound'],
      handler: async ({ actor, params }) => {
        await tokens().revoke(actor, 'organization', params.id);
        return { success: true };
      },
    })
    .route({
      operationId: 'listCustomerTokens',
      method: 'get',
      path: '/api/customer/tokens',
      tags,
      summary: 'Customer-scoped tokens',
      query: PageOnlyQuery,
      response: pagedSchema(ApiTokenSchema, 'CustomerTokenPage'),
      handler: async ({ actor, query }) => pageOf((await tokens().list(actor, 'customer')).map(presentApiToken), query),
    })
    .route({
      operationId: 'createCustomerToken',
      method: 'post',
      path: '/api/customer/tokens',
      tags,
      status: 201,
      summary: 'Mint a customer-scoped token',
      description: 'customerId names a customer of the organization; customer-bound users may omit it (their own customer).',
      body: z.object({ name: Name, expiresInDays: ExpiresInDays, customerId: z.number().int().positive().nullable().optional() }).strict(),
      response: MintedSchema,
      errors: [...MUTATION_ERRORS, 'invalidCustomer', 'customerNotFound'],
      handler: async ({ actor, body }) => {
        const { record, token } = await tokens().mint(actor, 'customer', body);
        return { ...presentApiToken(record), token };
      },
    })
    .route({
      operationId: 'revokeCustomerToken',
      method: 'delete',
      path: '/api/customer/tokens/{id}',
      tags,
      summary: 'Revoke a customer token',
      params: IdParams,
      response: SuccessSchema,
      errors: ['mfa_step_up_required', 'apiTokenNotFound'],
      handler: async ({ actor, params }) => {
        await tokens().revoke(actor, 'customer', params.id);
        return { success: true };
      },
    }).router;
});
