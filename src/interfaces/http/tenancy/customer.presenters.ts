import type { CustomerView } from '../../../application/tenancy/customer-views';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The Customer record of the spec: lists, create, and the base of the full record. */
export function presentCustomer({ customer: c, package: p, smsUsageCurrentMonth }: CustomerView) {
  const tierIndex = p ? p.tierIndex(c.quotaTierIndex) : 0;
  return {
    id: c.id,
    publicId: c.publicId,
    organizationId: c.organizationId,
    name: c.name,
    email: c.email,
    notificationPhoneNumber: c.notificationPhoneNumber,
    notificationEmail: c.notificationEmail,
    packageId: c.packageId,
    packageType: p?.key ?? '',
    packageDisplayName: p?.displayName ?? null,
    packageConfig: {
      id: c.packageId,
      key: p?.key ?? '',
      displayName: p?.displayName ?? null,
      minCheckIntervalMinutes: p?.minCheckIntervalMinutes ?? 0,
      monitorLimit: p?.quotaTiers[tierIndex]?.monitorLimit ?? 0,
      smsMonthlyAllowance: p?.smsMonthlyAllowance ?? 0,
    },
    status: c.status,
    allowedCheckCountryCodes: c.allowedCheckCountryCodes,
    cancellationDate: iso(c.cancellationDate),
    cancelledAt: iso(c.cancelledAt),
    customFields: c.customFields,
    monthlyReportsEnabled: c.monthlyReportsEnabled,
    notificationChannels: c.notificationChannels,
    notificationTargets: c.notificationTargets,
    notificationRules: c.notificationRules,
    smsUsageCurrentMonth,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** The full record (single GET, PATCH): with billing, alert and self-service settings. */
export function presentCustomerFull(view: CustomerView) {
  const { customer: c, package: p } = view;
  return {
    ...presentCustomer(view),
    companyName: c.companyName,
    street: c.street,
    postalCode: c.postalCode,
    city: c.city,
    country: c.country,
    vatId: c.vatId,
    paymentProviderCustomerId: c.paymentProviderCustomerId,
    paymentProviderSubscriptionId: c.paymentProviderSubscriptionId,
    customPricing: c.customPricing,
    alertConsecutiveChecks: c.alertConsecutiveChecks,
    alertRetryInterval: c.alertRetryInterval,
    alertLocationThreshold: c.alertLocationThreshold,
    alertLocationThresholdCount: c.alertLocationThresholdCount,
    alertReminderInterval: c.alertReminderInterval,
    dnsblReminderInterval: c.dnsblReminderInterval,
    sslExpiryReminderInterval: c.sslExpiryReminderInterval,
    allowSelfService: c.allowSelfService,
    maxSelfServiceUrls: c.maxSelfServiceUrls,
    canEditManaged: c.canEditManaged,
    quotaTierIndex: p ? p.tierIndex(c.quotaTierIndex) : c.quotaTierIndex,
  };
}

export function presentSmsUsage(month: string, views: CustomerView[]) {
  return {
    month,
    customers: views.map(({ customer, package: p, smsUsageCurrentMonth }) => {
      const allowance = p?.smsMonthlyAllowance ?? 0;
      return {
        customerId: customer.id,
        publicId: customer.publicId,
        name: customer.name,
        packageId: customer.packageId,
        smsUsed: smsUsageCurrentMonth,
        smsAllowance: allowance,
        smsRemaining: Math.max(0, allowance - smsUsageCurrentMonth),
      };
    }),
  };
}
