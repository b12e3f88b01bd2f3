import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { CUSTOMER_TERMS_LOOKUP } from '../../application/tenancy/customer-terms';
import {
  BILLING_ACCOUNTS,
  CUSTOM_PRICING_STORE,
  DISCOUNT_CODES,
  PAYMENT_PROVIDER,
  QUOTA_TIER_STORE,
} from '../../application/billing/ports';
import { TierCharges } from '../../application/billing/tier-charges';
import { ChargingTierUpgrades } from '../../application/billing/charging-tier-upgrades';
import { GetQuotaTiers } from '../../application/billing/get-quota-tiers';
import { ChangeQuotaTier } from '../../application/billing/change-quota-tier';
import { StartMandate } from '../../application/billing/start-mandate';
import { SettleMandate } from '../../application/billing/settle-mandate';
import { ApplyDiscount } from '../../application/billing/apply-discount';
import { CustomPricing } from '../../application/billing/custom-pricing';
import { OfflinePaymentProvider } from '../../infrastructure/billing/offline-payment-provider';
import { SqlBillingAccounts } from '../../infrastructure/billing/sql-billing-accounts';
import { SqlQuotaTierStore } from '../../infrastructure/billing/sql-quota-tier-store';
import { SqlCustomPricingStore } from '../../infrastructure/billing/sql-custom-pricing-store';
import { ConfiguredDiscountCodes } from '../../infrastructure/billing/configured-discount-codes';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL } from '../tokens';
import { bindings } from './bindings';
import { quotaTierRouter } from '../../interfaces/http/billing/quota-tier.router';
import { billingRouter } from '../../interfaces/http/billing/billing.router';
import { customPricingRouter } from '../../interfaces/http/billing/custom-pricing.router';
import type { ContextModule } from './context-module';

/**
 * Billing: quota tier moves and their charges, the payment mandate, discounts and customers'
 * custom prices, over the in-process payment provider (records an operator bills from).
 */
export const billingModule = bindings(({ single }) => {
  single(PAYMENT_PROVIDER, (c) => new OfflinePaymentProvider(c.get(POOL_SQL), c.get(ID_GENERATOR), c.get(CLOCK)));
  single(BILLING_ACCOUNTS, (c) => new SqlBillingAccounts(c.get(POOL_SQL)));
  single(QUOTA_TIER_STORE, (c) => new SqlQuotaTierStore(c.get(POOL_SQL)));
  single(CUSTOM_PRICING_STORE, (c) => new SqlCustomPricingStore(c.get(POOL_SQL)));
  single(DISCOUNT_CODES, (c) => new ConfiguredDiscountCodes(c.get<AppConfig>(CONFIG).billingDiscountCodes));

  single(TierCharges, (c) => new TierCharges(c.get(PAYMENT_PROVIDER), c.get(BILLING_ACCOUNTS)));
  single(ChargingTierUpgrades, (c) => new ChargingTierUpgrades(c.get(CUSTOMER_TERMS_LOOKUP), c.get(QUOTA_TIER_STORE), c.get(TierCharges)));
  single(GetQuotaTiers, (c) => new GetQuotaTiers(c.get(QUOTA_TIER_STORE), c.get(BILLING_ACCOUNTS)));
  single(
    ChangeQuotaTier,
    (c) =>
      new ChangeQuotaTier(c.get(QUOTA_TIER_STORE), c.get(BILLING_ACCOUNTS), c.get(TierCharges), c.get(TRANSACTION_RUNNER), c.get(CLOCK)),
  );
  single(
    StartMandate,
    (c) =>
      new StartMandate(
        c.get(PAYMENT_PROVIDER),
        c.get(BILLING_ACCOUNTS),
        c.get(CLOCK),
        new URL('/api/billing/mandate/return', c.get<AppConfig>(CONFIG).publicBaseUrl).toString(),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(
    SettleMandate,
    (c) =>
      new SettleMandate(
        c.get(PAYMENT_PROVIDER),
        c.get(BILLING_ACCOUNTS),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
        c.get<AppConfig>(CONFIG).billingReturnPageUrl ?? null,
      ),
  );
  single(ApplyDiscount, (c) => new ApplyDiscount(c.get(BILLING_ACCOUNTS), c.get(DISCOUNT_CODES), c.get(CLOCK), c.get(TRANSACTION_RUNNER)));
  single(CustomPricing, (c) => new CustomPricing(c.get(CUSTOM_PRICING_STORE), c.get(CLOCK), c.get(TRANSACTION_RUNNER)));
});

export const billingContext: ContextModule = {
  name: 'billing',
  bindings: billingModule,
  routers: [quotaTierRouter, billingRouter, customPricingRouter],
};
