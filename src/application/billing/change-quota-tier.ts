import { AppError } from '../../domain/shared/app-error';
import { decideTierMove } from '../../domain/billing/tier-move';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { Transaction, TransactionRunner } from '../shared/transaction';
import { requireBillingAdmin } from './billing-access';
import type { BillingAccounts, Charge, CustomerTier, QuotaTierStore } from './ports';
import type { TierCharges } from './tier-charges';

export interface QuotaTierChange {
  /** The customer whose tier moves (integer id or publicId); required with tierIndex. */
  readonly customerId?: number | string;
  readonly tierIndex?: number;
  /** The organization's switch for automatic upgrades when a monitor create exhausts the quota. */
  readonly autoQuotaUpgrade?: boolean;
  /** Agent connections must send true to buy a dearer tier. */
  readonly allowPaidQuotaUpgrade?: boolean;
}

export interface QuotaTierChangeResult {
  readonly autoQuotaUpgrade: boolean;
  readonly customer: CustomerTier | null;
  readonly charge: Charge | null;
}

/**
 * PATCH/POST /api/organization/quota-tier: moves a customer to another tier of its package (up or
 * down) and/or switches automatic upgrades. The customer's row is locked, so a monitor create
 * cannot slip in between counting and moving; a move to a dearer tier records its charge in the
 * same transaction. Allowed while the organization is suspended (raising the quota is how it
 * gets out of trouble).
 */
export class ChangeQuotaTier {
  constructor(
    private readonly tiers: QuotaTierStore,
    private readonly accounts: BillingAccounts,
    private readonly charges: TierCharges,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, change: QuotaTierChange): Promise<QuotaTierChangeResult> {
    requireBillingAdmin(actor);
    if (change.tierIndex !== undefined && change.customerId === undefined) {
      throw new AppError('validationFailed', {
        issues: [{ path: ['customerId'], message: 'Required with tierIndex', code: 'invalid_type' }],
      });
    }
    const organizationId = actor.scope.organizationId;
    return this.tx.run(async (tx) => {
      const now = this.clock.now();
      if (change.autoQuotaUpgrade !== undefined) await this.accounts.setAutoQuotaUpgrade(organizationId, change.autoQuotaUpgrade, now, tx);
      let customer: CustomerTier | null = null;
      let charge: Charge | null = null;
      if (change.customerId !== undefined) {
        customer = await this.tiers.lock(actor.scope, change.customerId, tx);
        if (!customer) throw new AppError('customerNotFound');
        if (change.tierIndex !== undefined) ({ customer, charge } = await this.move(actor, customer, change, now, tx));
      }
      const account = await this.accounts.getIn(organizationId, tx);
      return { autoQuotaUpgrade: account.autoQuotaUpgrade, customer, charge };
    });
  }

  private async move(actor: Actor, customer: CustomerTier, change: QuotaTierChange, now: Date, tx: Transaction) {
    const decision = decideTierMove({
      tiers: customer.tiers,
      currentTierIndex: customer.currentTierIndex,
      targetTierIndex: change.tierIndex!,
      monitorCount: customer.monitorCount,
      viaAgent: actor.kind === 'agent',
      allowPaidQuotaUpgrade: change.allowPaidQuotaUpgrade === true,
    });
    if (decision.kind === 'unchanged') return { customer, charge: null };
    const version = await this.tiers.move(actor.scope, customer.customerId, customer.currentTierIndex, decision.toTierIndex, now, tx);
    if (version === null) throw new AppError('conflict');
    const charge = await this.charges.record(
      {
        organizationId: actor.scope.organizationId,
        customerPublicId: customer.publicId,
        fromTierIndex: decision.fromTierIndex,
        toTierIndex: decision.toTierIndex,
        version,
        chargeCents: decision.chargeCents,
        automatic: false,
      },
      tx,
    );
    return { customer: { ...customer, currentTierIndex: decision.toTierIndex, version }, charge };
  }
}
