import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomerStatus } from '../../domain/tenancy/customer';
import type { QuotaTier } from '../../domain/tenancy/package-config';
import { token } from '../shared/token';
import type { Transaction } from '../shared/transaction';

/**
 * Everything other contexts (monitors, notifications) need to know about what a customer may do,
 * resolved from the customer and its package in one read.
 */
export interface CustomerTerms {
  readonly customerId: number;
  readonly publicId: string;
  readonly organizationId: number;
  readonly status: CustomerStatus;
  readonly allowSelfService: boolean;
  /** Self-service monitors allowed, all monitor types together. */
  readonly maxSelfServiceUrls: number;
  readonly canEditManaged: boolean;
  readonly packageId: number;
  readonly packageKey: string;
  readonly minCheckIntervalMinutes: number;
  /** The monitor limit of the current tier. */
  readonly monitorLimit: number;
  /** Ordered tiers of the package; see decideMonitorQuota. */
  readonly quotaTiers: readonly QuotaTier[];
  readonly currentTierIndex: number;
  /** The organization's switch for moving up a tier automatically when the quota is exhausted. */
  readonly autoQuotaUpgrade: boolean;
  readonly smsMonthlyAllowance: number;
  readonly allowedCheckCountryCodes: readonly string[] | null;
  readonly alerts: {
    readonly consecutiveChecks: number;
    /** Seconds before a confirmation check. */
    readonly retryInterval: number;
    readonly locationThreshold: string;
    readonly locationThresholdCount: number;
    readonly reminderInterval: number;
    readonly dnsblReminderInterval: number | null;
    readonly sslExpiryReminderInterval: number | null;
  };
}

export interface CustomerTermsLookup {
  /** Null when the customer is not visible in the scope. `customer` is the integer id or public id. */
  forCustomer(scope: TenantScope, customer: number | string): Promise<CustomerTerms | null>;
  /** `forCustomer` on the caller's transaction's connection (a read after its lock; see MonitorCustomerTermsLookup). */
  forCustomerIn(scope: TenantScope, customer: number | string, tx: Transaction): Promise<CustomerTerms | null>;
  /**
   * Moves the customer from `fromTierIndex` to the next tier. Throws monitorQuotaNoHigherTier at the
   * top, conflict when the tier moved meanwhile, customerNotFound outside the scope.
   */
  upgradeQuotaTier(scope: TenantScope, customerId: number, fromTierIndex: number, tx: Transaction): Promise<CustomerTerms>;
}
export const CUSTOMER_TERMS_LOOKUP = token<CustomerTermsLookup>('CustomerTermsLookup');
