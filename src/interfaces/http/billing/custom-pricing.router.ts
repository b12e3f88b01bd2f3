import { CustomPricing } from '../../../application/billing/custom-pricing';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { presentCustomPrice } from './presenters';
import { CustomerParams, CustomPriceBody, CustomPriceSchema } from './schemas';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['Billing'] as const;
const ACCESS =
  'Administrators of the organization and platform administrators (roleForbidden for other roles); ' +
  'customer-scoped tokens answer customerScopedTokenForbidden. A customer of another organization answers customerNotFound.';

/** /api/custom-pricing: the organization's own monthly price per customer, overriding the package price. */
export const customPricingRouter = defineRouter({ customPricing: CustomPricing }, (deps, use) => {
  const pricing = () => use.customPricing;
  return new ApiRouter(deps)
    .route({
      operationId: 'listCustomPrices',
      method: 'get',
      path: '/api/custom-pricing',
      tags,
      summary: "Every customer's package price and custom price",
      description: `The price the organization charges each customer: its custom price when set, else its package tier's. ${ACCESS}`,
      query: PageOnlyQuery,
      response: pagedSchema(CustomPriceSchema, 'CustomPricePage'),
      errors: ['roleForbidden', 'customerScopedTokenForbidden'],
      handler: async ({ actor, query }) => pageOf((await pricing().list(actor)).map(presentCustomPrice), query),
    })
    .route({
      operationId: 'setCustomPrice',
      method: 'put',
      path: '/api/custom-pricing/{customerId}',
      tags,
      summary: "Set a customer's custom price",
      description: `Replaces the customer's custom price (also shown as the customer's customPricing). ${ACCESS}`,
      params: CustomerParams,
      body: CustomPriceBody,
      response: CustomPriceSchema,
      errors: ['roleForbidden', 'customerScopedTokenForbidden', 'customerNotFound', 'invalidCustomPrice'],
      handler: async ({ actor, params, body }) => presentCustomPrice(await pricing().set(actor, params.customerId, body)),
    })
    .route({
      operationId: 'clearCustomPrice',
      method: 'delete',
      path: '/api/custom-pricing/{customerId}',
      tags,
      summary: "Clear a customer's custom price",
      description: `The package price applies again. ${ACCESS}`,
      params: CustomerParams,
      response: CustomPriceSchema,
      errors: ['roleForbidden', 'customerScopedTokenForbidden', 'customerNotFound'],
      handler: async ({ actor, params }) => presentCustomPrice(await pricing().set(actor, params.customerId, null)),
    }).router;
});
