import type { Transaction } from '../shared/transaction';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { QuotaTier } from '../../domain/tenancy/package-config';
import type { Discount } from '../../domain/billing/discount';
import type { MandateStatus } from '../../domain/billing/mandate';
import type { CustomPrice } from '../../domain/billing/custom-price';
import { token } from '../shared/token';

/**
 * Whoever takes the organization's money, in neutral terms: a mandate (standing permission to
 * charge, set up on the provider's page the browser is sent to) and charges against it.
 */
export interface PaymentProvider {
  startMandate(organizationId: number, returnUrl: string, tx: Transaction): Promise<{ mandateId: string; redirectUrl: string }>;
  /** The mandate's state as the provider knows it now; null when the provider does not know it. */
  mandateStatus(mandateId: string): Promise<{ organizationId: number; status: MandateStatus } | null>;
  /**
   * Records a charge. Idempotent on `idempotencyKey`: a second call with the same key charges
   * nothing and answers the first charge.
   */
  charge(organizationId: number, charge: ChargeRequest, tx: Transaction): Promise<Charge>;
}
export const PAYMENT_PROVIDER = token<PaymentProvider>('PaymentProvider');

export interface ChargeRequest {
  readonly amountCents: number;
  readonly currency: string;
  readonly description: string;
  readonly idempotencyKey: string;
}

export interface Charge extends ChargeRequest {
  readonly id: string;
  readonly organizationId: number;
  readonly createdAt: Date;
}

/** The organization's billing record: its mandate as last seen, its discount, its upgrade switch. */
export interface BillingAccount {
  readonly organizationId: number;
  readonly mandateId: string | null;
  readonly mandateStatus: MandateStatus | null;
  readonly discount: Discount | null;
  readonly autoQuotaUpgrade: boolean;
}

export interface BillingAccounts {
  exists(organizationId: number): Promise<boolean>;
  get(organizationId: number): Promise<BillingAccount>;
  /** The same read on the caller's transaction (it sees that transaction's writes). */
  getIn(organizationId: number, tx: Transaction): Promise<BillingAccount>;
  setMandate(organizationId: number, mandateId: string, status: MandateStatus, at: Date, tx: Transaction): Promise<void>;
  setDiscount(organizationId: number, discount: Discount | null, at: Date, tx: Transaction): Promise<void>;
  setAutoQuotaUpgrade(organizationId: number, on: boolean, at: Date, tx: Transaction): Promise<void>;
  /** Charges recorded for the organization, newest first. */
  charges(organizationId: number, limit: number): Promise<Charge[]>;
}
export const BILLING_ACCOUNTS = token<BillingAccounts>('BillingAccounts');

/** A customer's place on its package's quota tiers, with the monitors it has. */
export interface CustomerTier {
  readonly customerId: number;
  readonly publicId: string;
  readonly name: string;
  readonly packageId: number;
  readonly packageKey: string;
  readonly packageDisplayName: string;
  readonly tiers: readonly QuotaTier[];
  readonly currentTierIndex: number;
  readonly monitorCount: number;
  /** The customer row's version: a tier move is one version, so charges keyed on it are charged once. */
  readonly version: number;
}

export interface QuotaTierStore {
  list(scope: TenantScope): Promise<CustomerTier[]>;
  /** Locks the customer row for the rest of the transaction (monitor creates lock it too); null outside the scope. */
  lock(scope: TenantScope, customer: number | string, tx: Transaction): Promise<CustomerTier | null>;
  /** Sets the tier when it is still `fromTierIndex`; answers the new version, or null when it moved meanwhile. */
  move(
    scope: TenantScope,
    customerId: number,
    fromTierIndex: number,
    toTierIndex: number,
    at: Date,
    tx: Transaction,
  ): Promise<number | null>;
}
export const QUOTA_TIER_STORE = token<QuotaTierStore>('QuotaTierStore');

export interface CustomPriceRow {
  readonly customerId: number;
  readonly publicId: string;
  readonly name: string;
  readonly packageKey: string;
  /** The monthly price of the customer's current tier. */
  readonly packagePriceMonthly: number;
  readonly customPrice: CustomPrice | null;
}

export interface CustomPricingStore {
  list(scope: TenantScope): Promise<CustomPriceRow[]>;
  /** Null when the customer is not in the scope. */
  set(scope: TenantScope, customer: number | string, price: CustomPrice | null, at: Date, tx: Transaction): Promise<CustomPriceRow | null>;
}
export const CUSTOM_PRICING_STORE = token<CustomPricingStore>('CustomPricingStore');

/** The codes an organization may redeem: percent off, or null for an unknown code. */
export interface DiscountCodes {
  percentOf(code: string): Promise<number | null>;
}
export const DISCOUNT_CODES = token<DiscountCodes>('DiscountCodes');
