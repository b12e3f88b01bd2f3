import { AppError } from '../shared/app-error';
import type { QuotaTier } from './package-config';

export interface MonitorQuotaInput {
  /** Monitors the customer has now, before the one being added. */
  readonly monitorCount: number;
  readonly tiers: readonly QuotaTier[];
  readonly currentTierIndex: number;
  /** The organization upgrades tiers automatically when the quota is exhausted. */
  readonly autoUpgrade: boolean;
  /** The call comes over an agent connection. */
  readonly viaAgent: boolean;
  /** The agent call carries allowPaidQuotaUpgrade: true. */
  readonly allowPaidQuotaUpgrade: boolean;
}

export type MonitorQuotaDecision =
  { readonly kind: 'withinQuota' } | { readonly kind: 'upgrade'; readonly toTierIndex: number; readonly tier: QuotaTier };

/**
 * Whether one more monitor fits the customer's quota tier, or which tier to move up to. Exhausted
 * without automatic upgrade: monitorQuotaReached; at the top tier: monitorQuotaNoHigherTier; an agent
 * call that would buy a dearer tier without allowPaidQuotaUpgrade: paidQuotaUpgradeNotAuthorized.
 */
export function decideMonitorQuota(input: MonitorQuotaInput): MonitorQuotaDecision {
  const index = Math.max(0, Math.min(input.currentTierIndex, input.tiers.length - 1));
  const current = input.tiers[index]!;
  if (input.monitorCount < current.monitorLimit) return { kind: 'withinQuota' };
  const details = { monitorLimit: current.monitorLimit, tierIndex: index };
  if (!input.autoUpgrade) throw new AppError('monitorQuotaReached', details);
  const next = input.tiers[index + 1];
  if (!next) throw new AppError('monitorQuotaNoHigherTier', details);
  if (input.viaAgent && next.priceMonthly > current.priceMonthly && !input.allowPaidQuotaUpgrade) {
    throw new AppError('paidQuotaUpgradeNotAuthorized', { ...details, priceMonthly: next.priceMonthly });
  }
  return { kind: 'upgrade', toTierIndex: index + 1, tier: next };
}
