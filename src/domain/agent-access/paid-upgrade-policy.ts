import { AppError } from '../shared/app-error';

/**
 * Rule 5 of agent access: a call over an agent connection that would buy a paid quota tier needs
 * `allowPaidQuotaUpgrade: true` in the call. The quota use case asks this before upgrading.
 */
export function assertPaidUpgradeAllowed(caller: { isAgent: boolean; allowPaidQuotaUpgrade?: boolean }): void {
  if (caller.isAgent && caller.allowPaidQuotaUpgrade !== true) throw new AppError('paidQuotaUpgradeNotAuthorized');
}
