import type { Charge, CustomerTier, CustomPriceRow } from '../../../application/billing/ports';
import type { Discount } from '../../../domain/billing/discount';

export function presentCustomerQuota(c: CustomerTier) {
  return {
    customerId: c.customerId,
    customerPublicId: c.publicId,
    name: c.name,
    packageId: c.packageId,
    packageType: c.packageKey,
    packageDisplayName: c.packageDisplayName,
    tiers: c.tiers.map((tier, index) => ({ index, monitorLimit: tier.monitorLimit, priceMonthly: tier.priceMonthly })),
    currentTierIndex: c.currentTierIndex,
    monitorLimit: c.tiers[c.currentTierIndex]!.monitorLimit,
    monitorsUsed: c.monitorCount,
  };
}

export function presentCharge(c: Charge) {
  return { id: c.id, amountCents: c.amountCents, currency: c.currency, description: c.description, createdAt: c.createdAt.toISOString() };
}

export function presentDiscount(d: Discount | null) {
  return { discount: d ? { percent: d.percent, code: d.code, appliedAt: d.appliedAt.toISOString() } : null };
}

export function presentCustomPrice(r: CustomPriceRow) {
  return {
    customerId: r.customerId,
    customerPublicId: r.publicId,
    name: r.name,
    packageType: r.packageKey,
    packagePriceMonthly: r.packagePriceMonthly,
    customPricing: r.customPrice,
    effectivePriceMonthly: r.customPrice?.priceMonthly ?? r.packagePriceMonthly,
  };
}
