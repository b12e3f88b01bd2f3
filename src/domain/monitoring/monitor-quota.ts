import { AppError } from '../shared/app-error';

/** One step of a customer's monitor quota (its package's tiers): how many monitors, for what monthly price. */
export interface QuotaTier {
  readonly monitorLimit: number;
  readonly priceMonthly: number;
}

export interface MonitorQuotaInput {
  /** Monitors of every kind the customer has now, before the one being added. */
  readonly monitorCount: number;
  readonly tiers: readonly QuotaTier[];
  readonly currentTierIndex: number;
  /** organizations.auto_quota_upgrade: move up a tier instead of refusing. */
  readonly autoUpgrade: boolean;
  /** The call comes over an agent connection (actor.kind === 'agent'). */
  readonly viaAgent: boolean;
  readonly allowPaidQuotaUpgrade: boolean;
}

export type MonitorQuotaDecision =
  | { readonly kind: 'withinQuota' }
  | { readonly kind: 'upgrade'; readonly toTierIndex: number; readonly tier: QuotaTier };

/**
 * Whether one more monitor fits the current tier, or which tier to move up to. Exhausted without
 * automatic upgrade: monitorQuotaReached; automatic upgrade at the top tier: monitorQuotaNoHigherTier;
 * an agent call that would buy a dearer tier without allowPaidQuotaUpgrade: paidQuotaUpgradeNotAuthorized.
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
