import { AppError } from '../shared/app-error';
import type { QuotaTier } from '../tenancy/package-config';
import { centsOf } from './money';

export interface TierMoveInput {
  readonly tiers: readonly QuotaTier[];
  /** The stored tier index (clamped to the tiers, as the package may have shrunk since). */
  readonly currentTierIndex: number;
  readonly targetTierIndex: number;
  /** Monitors the customer has now, all types together. */
  readonly monitorCount: number;
  /** The call comes over an agent connection. */
  readonly viaAgent: boolean;
  /** The agent call carries allowPaidQuotaUpgrade: true. */
  readonly allowPaidQuotaUpgrade: boolean;
}

export type TierMove =
  | { readonly kind: 'unchanged'; readonly tierIndex: number }
  | {
      readonly kind: 'move';
      readonly fromTierIndex: number;
      readonly toTierIndex: number;
      readonly tier: QuotaTier;
      /** What the move costs on top of the current tier's monthly price, in cents; 0 for moves down or between free tiers. */
      readonly chargeCents: number;
    };

/**
 * A customer's move to another quota tier of its package, up or down. A tier that does not exist:
 * invalidQuotaTier. Down to a tier whose limit is below the monitors the customer has:
 * quotaTierBelowUsage (delete monitors first). Up to a dearer tier over an agent connection without
 * allowPaidQuotaUpgrade: paidQuotaUpgradeNotAuthorized. Moving up costs the difference of the
 * monthly prices (what the organization pays more from now on); moving down costs nothing.
 */
export function decideTierMove(input: TierMoveInput): TierMove {
  const from = Math.max(0, Math.min(input.currentTierIndex, input.tiers.length - 1));
  const target = input.tiers[input.targetTierIndex];
  if (!Number.isInteger(input.targetTierIndex) || !target) {
    throw new AppError('invalidQuotaTier', { tierIndex: input.targetTierIndex, tierCount: input.tiers.length });
  }
  if (input.targetTierIndex === from) return { kind: 'unchanged', tierIndex: from };
  if (input.monitorCount > target.monitorLimit) {
    throw new AppError('quotaTierBelowUsage', {
      monitorCount: input.monitorCount,
      monitorLimit: target.monitorLimit,
      tierIndex: input.targetTierIndex,
    });
  }
  const chargeCents = upgradeChargeCents(input.tiers[from]!, target);
  if (input.viaAgent && chargeCents > 0 && !input.allowPaidQuotaUpgrade) {
    throw new AppError('paidQuotaUpgradeNotAuthorized', { tierIndex: input.targetTierIndex, priceMonthly: target.priceMonthly });
  }
  return { kind: 'move', fromTierIndex: from, toTierIndex: input.targetTierIndex, tier: target, chargeCents };
}

/** The extra monthly price of moving from one tier to another, in cents (never negative). */
export function upgradeChargeCents(from: QuotaTier, to: QuotaTier): number {
  return Math.max(0, centsOf(to.priceMonthly) - centsOf(from.priceMonthly));
}
