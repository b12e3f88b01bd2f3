import { GetQuotaTiers } from '../../../application/billing/get-quota-tiers';
import { ChangeQuotaTier } from '../../../application/billing/change-quota-tier';
import { BILLING_CURRENCY } from '../../../domain/billing/money';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { presentCharge, presentCustomerQuota } from './presenters';
import { QuotaTierChangeBody, QuotaTierChangeSchema, QuotaTierOverviewSchema } from './schemas';

const tags = ['Billing'] as const;
const ACCESS =
  'Administrators of the organization and platform administrators (roleForbidden for other roles); ' +
  'customer-scoped tokens answer customerScopedTokenForbidden. Open while the organization is suspended.';
const CHANGE =
  'Moves one customer to another tier of its package (tierIndex with customerId) and/or switches automatic ' +
  'upgrades (autoQuotaUpgrade). Down is refused with 409 quotaTierBelowUsage (data.monitorCount, data.monitorLimit) while ' +
  'the customer has more monitors than the lower tier allows; a tier the package lacks is 400 invalidQuotaTier. A move ' +
  "to a dearer tier records a charge of the monthly price difference (after the organization's discount), once per " +
  'move; agent connections must send allowPaidQuotaUpgrade: true for it (paidQuotaUpgradeNotAuthorized). A customer ' +
  `of another organization answers customerNotFound. ${ACCESS}`;
const ERRORS = [
  'roleForbidden',
  'customerNotFound',
  'invalidQuotaTier',
  'quotaTierBelowUsage',
  'paidQuotaUpgradeNotAuthorized',
  'conflict',
] as const;

/** /api/organization/quota-tier: customers' monitor quota tiers and the organization's automatic upgrade switch. */
export const quotaTierRouter = defineRouter({ changeQuotaTier: ChangeQuotaTier, getQuotaTiers: GetQuotaTiers }, (deps, use) => {
  const change = async ({
    actor,
    body,
  }: {
    actor: Parameters<ChangeQuotaTier['execute']>[0];
    body: typeof QuotaTierChangeBody._output;
  }) => {
    const result = await use.changeQuotaTier.execute(actor, body);
    return {
      autoQuotaUpgrade: result.autoQuotaUpgrade,
      customer: result.customer ? presentCustomerQuota(result.customer) : null,
      charge: result.charge ? presentCharge(result.charge) : null,
    };
  };
  return new ApiRouter(deps)
    .route({
      operationId: 'getQuotaTiers',
      method: 'get',
      path: '/api/organization/quota-tier',
      tags,
      summary: "Customers' quota tiers and the automatic upgrade switch",
      description: `Per customer: its package, the package's tiers with limits and prices, the current tier and the monitors used. ${ACCESS}`,
      response: QuotaTierOverviewSchema,
      errors: ['roleForbidden'],
      handler: async ({ actor }) => {
        const overview = await use.getQuotaTiers.execute(actor);
        return {
          autoQuotaUpgrade: overview.autoQuotaUpgrade,
          currency: BILLING_CURRENCY,
          customers: overview.customers.map(presentCustomerQuota),
        };
      },
    })
    .route({
      operationId: 'updateQuotaTier',
      method: 'patch',
      path: '/api/organization/quota-tier',
      tags,
      summary: "Change a customer's quota tier or the upgrade switch",
      description: CHANGE,
      body: QuotaTierChangeBody,
      response: QuotaTierChangeSchema,
      errors: [...ERRORS],
      handler: change,
    })
    .route({
      operationId: 'changeQuotaTier',
      method: 'post',
      path: '/api/organization/quota-tier',
      tags,
      summary: "Change a customer's quota tier or the upgrade switch (as PATCH)",
      description: CHANGE,
      body: QuotaTierChangeBody,
      response: QuotaTierChangeSchema,
      errors: [...ERRORS],
      handler: change,
    }).router;
});
