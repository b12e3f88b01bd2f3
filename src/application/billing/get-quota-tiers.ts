import type { Actor } from '../shared/actor';
import { requireBillingAdmin } from './billing-access';
import type { BillingAccounts, CustomerTier, QuotaTierStore } from './ports';

export interface QuotaTierOverview {
  readonly autoQuotaUpgrade: boolean;
  readonly customers: readonly CustomerTier[];
}

/** GET /api/organization/quota-tier: every customer's package tiers, current tier and monitors used; the upgrade switch. */
export class GetQuotaTiers {
  constructor(
    private readonly tiers: QuotaTierStore,
    private readonly accounts: BillingAccounts,
  ) {}

  async execute(actor: Actor): Promise<QuotaTierOverview> {
    requireBillingAdmin(actor);
    const [account, customers] = await Promise.all([this.accounts.get(actor.scope.organizationId), this.tiers.list(actor.scope)]);
    return { autoQuotaUpgrade: account.autoQuotaUpgrade, customers };
  }
}
