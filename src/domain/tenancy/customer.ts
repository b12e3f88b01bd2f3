import type { CustomFieldValues } from './custom-field-values';
import type { PackageConfig } from './package-config';

export const CUSTOMER_STATUSES = ['active', 'suspended', 'cancelled'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

/** Contact, billing, alert and notification details of a customer, changeable together. */
export interface CustomerProfile {
  name: string;
  email: string;
  notificationPhoneNumber: string | null;
  notificationEmail: string | null;
  monthlyReportsEnabled: boolean;
  notificationChannels: string[] | null;
  notificationTargets: string[] | null;
  notificationRules: Record<string, unknown> | null;
  companyName: string | null;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  country: string | null;
  vatId: string | null;
  alertConsecutiveChecks: number;
  /** Seconds before a confirmation check (floor 10). */
  alertRetryInterval: number;
  /** A decimal in 0..1 kept as text ("0.50"): the share of locations that must fail. */
  alertLocationThreshold: string;
  alertLocationThresholdCount: number;
  /** Minutes between reminders; 0 or null: none. */
  alertReminderInterval: number;
  dnsblReminderInterval: number | null;
  sslExpiryReminderInterval: number | null;
}

/** Terms only the organization sets: a customer-scoped caller may not change these. */
export interface CustomerTermsFields {
  status: CustomerStatus;
  allowedCheckCountryCodes: string[] | null;
  cancellationDate: Date | null;
  paymentProviderCustomerId: string | null;
  paymentProviderSubscriptionId: string | null;
  customPricing: Record<string, unknown> | null;
  allowSelfService: boolean;
  maxSelfServiceUrls: number;
  canEditManaged: boolean;
}

export const ORGANIZATION_CONTROLLED_FIELDS = [
  'status',
  'allowedCheckCountryCodes',
  'cancellationDate',
  'paymentProviderCustomerId',
  'paymentProviderSubscriptionId',
  'customPricing',
  'allowSelfService',
  'maxSelfServiceUrls',
  'canEditManaged',
  'packageId',
  'packageType',
  'customFields',
] as const;

const PROFILE_DEFAULTS: Omit<CustomerProfile, 'name' | 'email'> = {
  notificationPhoneNumber: null,
  notificationEmail: null,
  monthlyReportsEnabled: false,
  notificationChannels: null,
  notificationTargets: null,
  notificationRules: null,
  companyName: null,
  street: null,
  postalCode: null,
  city: null,
  country: null,
  vatId: null,
  alertConsecutiveChecks: 2,
  alertRetryInterval: 20,
  alertLocationThreshold: '0.50',
  alertLocationThresholdCount: 1,
  alertReminderInterval: 0,
  dnsblReminderInterval: null,
  sslExpiryReminderInterval: null,
};

const TERMS_DEFAULTS: CustomerTermsFields = {
  status: 'active',
  allowedCheckCountryCodes: null,
  cancellationDate: null,
  paymentProviderCustomerId: null,
  paymentProviderSubscriptionId: null,
  customPricing: null,
  allowSelfService: false,
  maxSelfServiceUrls: 10,
  canEditManaged: false,
};

/** A customer of an organization: owns monitors, domains and IPs, and buys one package. */
export class Customer implements CustomerProfile, CustomerTermsFields {
  id!: number;
  publicId: string;
  organizationId: number;
  packageId: number;
  /** Current monitor quota tier of the package (0 = base). */
  quotaTierIndex = 0;
  customFields: CustomFieldValues = {};
  cancelledAt: Date | null = null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;
  declare name: string;
  declare email: string;
  declare notificationPhoneNumber: string | null;
  declare notificationEmail: string | null;
  declare monthlyReportsEnabled: boolean;
  declare notificationChannels: string[] | null;
  declare notificationTargets: string[] | null;
  declare notificationRules: Record<string, unknown> | null;
  declare companyName: string | null;
  declare street: string | null;
  declare postalCode: string | null;
  declare city: string | null;
  declare country: string | null;
  declare vatId: string | null;
  declare alertConsecutiveChecks: number;
  declare alertRetryInterval: number;
  declare alertLocationThreshold: string;
  declare alertLocationThresholdCount: number;
  declare alertReminderInterval: number;
  declare dnsblReminderInterval: number | null;
  declare sslExpiryReminderInterval: number | null;
  declare status: CustomerStatus;
  declare allowedCheckCountryCodes: string[] | null;
  declare cancellationDate: Date | null;
  declare paymentProviderCustomerId: string | null;
  declare paymentProviderSubscriptionId: string | null;
  declare customPricing: Record<string, unknown> | null;
  declare allowSelfService: boolean;
  declare maxSelfServiceUrls: number;
  declare canEditManaged: boolean;

  constructor(
    props: Pick<CustomerProfile, 'name' | 'email'> &
      Partial<CustomerProfile & CustomerTermsFields> & {
        publicId: string;
        organizationId: number;
        package: PackageConfig;
        customFields?: CustomFieldValues;
        now: Date;
      },
  ) {
    const { publicId, organizationId, package: chosen, customFields, now, ...details } = props;
    Object.assign(this, PROFILE_DEFAULTS, TERMS_DEFAULTS);
    this.publicId = publicId;
    this.organizationId = organizationId;
    this.packageId = chosen.id;
    this.customFields = { ...(customFields ?? {}) };
    this.createdAt = now;
    this.updatedAt = now;
    this.change(details, now);
  }

  /** Applies profile and terms changes; status moves keep cancelledAt in step. */
  change(change: Partial<CustomerProfile & CustomerTermsFields>, now: Date): void {
    const { status, ...rest } = change;
    for (const [key, value] of Object.entries(rest)) {
      if (value !== undefined) (this as Record<string, unknown>)[key] = value;
    }
    if (status !== undefined && status !== this.status) {
      this.status = status;
      this.cancelledAt = status === 'cancelled' ? now : null;
    }
    this.updatedAt = now;
  }

  /** Moving to another package starts at its base quota tier. */
  changePackage(chosen: PackageConfig, now: Date): void {
    if (chosen.id === this.packageId) return;
    this.packageId = chosen.id;
    this.quotaTierIndex = 0;
    this.updatedAt = now;
  }

  setCustomFields(values: CustomFieldValues, now: Date): void {
    this.customFields = { ...values };
    this.updatedAt = now;
  }
}
