import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { StartMandate } from '../../../application/billing/start-mandate';
import { SettleMandate } from '../../../application/billing/settle-mandate';
import { ApplyDiscount } from '../../../application/billing/apply-discount';
import { BILLING_ACCOUNTS } from '../../../application/billing/ports';
import { requireBillingAdmin } from '../../../application/billing/billing-access';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { presentCharge, presentDiscount } from './presenters';
import {
  BillingAccountSchema,
  ChargeSchema,
  DiscountBody,
  DiscountSchema,
  MandateReturnQuery,
  MandateStartSchema,
  MandateStateSchema,
} from './schemas';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['Billing'] as const;
const RETURN_PATH = '/api/billing/mandate/return';
const ACCESS = 'Administrators of the organization and platform administrators (roleForbidden for other roles).';
const OPEN = 'Open while the organization is suspended.';

/** /api/billing: the payment mandate, discounts and the charges recorded. */
export const billingRouter = defineRouter(
  { billingAccounts: BILLING_ACCOUNTS, startMandate: StartMandate, settleMandate: SettleMandate, applyDiscount: ApplyDiscount },
  (deps, use) => {
    const router = new ApiRouter(deps)
      .route({
        operationId: 'getBillingAccount',
        method: 'get',
        path: '/api/billing',
        tags,
        summary: "The organization's billing record",
        description: `Its payment mandate as last read from the provider, its discount and the automatic quota upgrade switch. ${ACCESS}`,
        response: BillingAccountSchema,
        errors: ['roleForbidden'],
        handler: async ({ actor }) => {
          requireBillingAdmin(actor);
          const account = await use.billingAccounts.get(actor.scope.organizationId);
          return {
            mandateId: account.mandateId,
            mandateStatus: account.mandateStatus,
            autoQuotaUpgrade: account.autoQuotaUpgrade,
            ...presentDiscount(account.discount),
          };
        },
      })
      .route({
        operationId: 'startPaymentMandate',
        method: 'post',
        path: '/api/billing/mandate',
        tags,
        summary: 'Start a payment mandate',
        description:
          'Starts a mandate with the payment provider and answers where to send the browser; the provider sends it ' +
          'back to /api/billing/mandate/return?mandateId=... The built-in provider bills offline (invoices from the recorded ' +
          `charges): it has no page of its own, so redirectUrl is the return URL and the mandate is active at once. ${ACCESS}`,
        response: MandateStartSchema,
        status: 201,
        errors: ['roleForbidden'],
        handler: async ({ actor }) => use.startMandate.execute(actor),
      })
      .route({
        operationId: 'returnFromPaymentMandate',
        method: 'get',
        path: RETURN_PATH,
        tags,
        summary: "Where the browser lands after the provider's page",
        description:
          "Reads the mandate's state from the provider (not from the query string) and records it on the organization: " +
          'active or failed (pending while the provider has not decided). Answers the state as JSON; with BILLING_RETURN_PAGE_URL ' +
          'configured, a browser (Accept: text/html) is sent there instead (303, ?mandateStatus=active|pending|failed). ' +
          `mandateNotFound for a mandate the provider does not know or of another organization. ${ACCESS} ${OPEN}`,
        query: MandateReturnQuery,
        response: MandateStateSchema,
        errors: ['roleForbidden', 'mandateNotFound'],
        handler: async ({ actor, query, req, res }) => {
          const settle = use.settleMandate;
          const state = await settle.afterReturn(actor, query.mandateId);
          const page = settle.returnPage(state);
          if (!page || req.accepts(['json', 'html']) !== 'html') return state;
          res.redirect(303, page);
          return undefined;
        },
      })
      .route({
        operationId: 'reconcilePaymentMandate',
        method: 'post',
        path: '/api/billing/mandate/reconcile',
        tags,
        summary: 'Re-read the mandate from the provider',
        description:
          "Re-reads the organization's current mandate from the provider and fixes the organization's record " +
          `(changed tells whether it did); idempotent. mandateNotFound when the organization has none. ${ACCESS} ${OPEN}`,
        response: MandateStateSchema,
        errors: ['roleForbidden', 'mandateNotFound'],
        handler: async ({ actor }) => use.settleMandate.reconcile(actor),
      })
      .route({
        operationId: 'applyBillingDiscount',
        method: 'post',
        path: '/api/billing/discount',
        tags,
        summary: 'Apply a discount to the organization',
        description:
          "A discount code (BILLING_DISCOUNT_CODES; unknown: 422 invalidDiscountCode) sets the organization's " +
          'discount on future charges, unless it would lower the one it has (400 invalidDiscount). A bare percentage is for ' +
          `platform administrators only (roleForbidden otherwise), to any organization (organizationId; organizationNotFound); 0 clears it. Redeeming the current code again changes nothing. ${ACCESS} ${OPEN}`,
        body: DiscountBody,
        response: DiscountSchema,
        errors: ['roleForbidden', 'invalidDiscountCode', 'invalidDiscount', 'organizationNotFound'],
        handler: async ({ actor, body }) => presentDiscount(await use.applyDiscount.execute(actor, body)),
      })
      .route({
        operationId: 'listBillingCharges',
        method: 'get',
        path: '/api/billing/charges',
        tags,
        summary: 'Charges recorded for the organization',
        description: `Newest first, at most 100: quota tier moves to dearer tiers, manual or automatic. ${ACCESS}`,
        query: PageOnlyQuery,
        response: pagedSchema(ChargeSchema, 'BillingChargePage'),
        errors: ['roleForbidden'],
        handler: async ({ actor, query }) => {
          requireBillingAdmin(actor);
          const charges = await use.billingAccounts.charges(actor.scope.organizationId, 100);
          return pageOf(charges.map(presentCharge), query);
        },
      });
    const returned = (deps.paths[RETURN_PATH] as Record<string, ZodOpenApiOperationObject>).get!;
    returned.responses = {
      ...returned.responses,
      303: { description: 'A browser, with BILLING_RETURN_PAGE_URL configured: sent on to that page with ?mandateStatus=' },
    };
    return router.router;
  },
);
