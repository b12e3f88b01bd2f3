import { upgradeChargeCents } from '../../domain/billing/tier-move';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomerTerms, CustomerTermsLookup } from '../tenancy/customer-terms';
import type { Transaction } from '../shared/transaction';
import type { QuotaTierStore } from './ports';
import type { TierCharges } from './tier-charges';

/**
 * The customers' terms as monitors see them, with automatic quota upgrades (a monitor create that
 * exhausted the quota while the organization's autoQuotaUpgrade is on) recording their charge.
 * The monitor create runs the upgrade inside its transaction, so the charge commits with the
 * monitor and the tier, or not at all.
 */
export class ChargingTierUpgrades implements CustomerTermsLookup {
  constructor(
    private readonly terms: CustomerTermsLookup,
    private readonly tiers: QuotaTierStore,
    private readonly charges: TierCharges,
  ) {}

  forCustomer(scope: TenantScope, customer: number | string): Promise<CustomerTerms | null> {
    return this.terms.forCustomer(scope, customer);
  }

  forCustomerIn(scope: TenantScope, customer: number | string, tx: Transaction): Promise<CustomerTerms | null> {
    return this.terms.forCustomerIn(scope, customer, tx);
  }

  async upgradeQuotaTier(scope: TenantScope, customerId: number, fromTierIndex: number, tx: Transaction): Promise<CustomerTerms> {
    const upgraded = await this.terms.upgradeQuotaTier(scope, customerId, fromTierIndex, tx);
    const from = upgraded.quotaTiers[fromTierIndex];
    const to = upgraded.quotaTiers[upgraded.currentTierIndex];
    const moved = await this.tiers.lock(scope, customerId, tx);
    if (from && to && moved) {
      await this.charges.record(
        {
          organizationId: upgraded.organizationId,
          customerPublicId: upgraded.publicId,
          fromTierIndex,
          toTierIndex: upgraded.currentTierIndex,
          version: moved.version,
          chargeCents: upgradeChargeCents(from, to),
          automatic: true,
        },
        tx,
      );
    }
    return upgraded;
  }
}
