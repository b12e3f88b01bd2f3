import { AppError } from '../shared/app-error';

/** An organization's monitor quota: ascending tiers (the first included, the rest paid) and where it stands. */
export interface MonitorQuota {
  readonly tiers: readonly number[];
  readonly tierIndex: number;
  /** organizations.auto_quota_upgrade: buy the next tier instead of refusing. */
  readonly autoUpgrade: boolean;
}

export type QuotaDecision = { readonly kind: 'within' } | { readonly kind: 'upgrade'; readonly tierIndex: number; readonly limit: number };

export const quotaLimit = (quota: MonitorQuota): number => quota.tiers[Math.min(quota.tierIndex, quota.tiers.length - 1)]!;

/**
 * Whether one more monitor (of any kind) fits. When the quota is exhausted: no automatic upgrade
 * answers monitorQuotaReached; automatic upgrade at the top tier monitorQuotaNoHigherTier; an agent
 * caller must opt in to buying the next (paid) tier with allowPaidQuotaUpgrade, else
 * paidQuotaUpgradeNotAuthorized.
 */
export function decideMonitorQuota(
  quota: MonitorQuota, monitorCount: number, caller: { agent: boolean; allowPaidQuotaUpgrade: boolean },
): QuotaDecision {
  const limit = quotaLimit(quota);
  if (monitorCount + 1 <= limit) return { kind: 'within' };
  if (!quota.autoUpgrade) throw new AppError('monitorQuotaReached', { limit });
  const next = quota.tiers.findIndex((tier) => tier >= monitorCount + 1);
  if (next < 0 || next <= quota.tierIndex) throw new AppError('monitorQuotaNoHigherTier', { limit });
  if (caller.agent && !caller.allowPaidQuotaUpgrade) {
    throw new AppError('paidQuotaUpgradeNotAuthorized', { limit, nextLimit: quota.tiers[next] });
  }
  return { kind: 'upgrade', tierIndex: next, limit: quota.tiers[next]! };
}
