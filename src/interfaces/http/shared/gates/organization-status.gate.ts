import { AppError } from '../../../../domain/shared/app-error';
import type { Gate } from './gate-request';

/**
 * What a suspended organization may still do: read itself and the session, sign out, look the
 * tenant up, export its data, change its quota tier and settle billing.
 */
const SUSPENDED_ALLOWLIST: Array<{ method: string | '*'; path: RegExp }> = [
  { method: 'GET', path: /^\/api\/organization$/ },
  { method: 'GET', path: /^\/api\/organizations\/[^/]+$/ },
  { method: 'GET', path: /^\/api\/auth\/get-session$/ },
  { method: 'POST', path: /^\/api\/auth\/sign-out$/ },
  { method: '*', path: /^\/api\/organization\/data-export(\/.*)?$/ },
  { method: '*', path: /^\/api\/organization\/quota-tier$/ },
  { method: '*', path: /^\/api\/billing\/(mandate\/(return|reconcile)|discount)$/ },
];

export function isAllowedWhileSuspended(method: string, path: string): boolean {
  return SUSPENDED_ALLOWLIST.some((entry) => (entry.method === '*' || entry.method === method) && entry.path.test(path));
}

/**
 * Suspended: 423 without a code outside the allowlist. Deleted: 423 organizationSuspended
 * everywhere, sign-out and session bootstrap included. Platform admins and supporters pass.
 */
export const organizationStatusGate: Gate = (caller, request) => {
  const { actor, organization } = caller;
  if (actor.isPlatformAdmin || actor.isPlatformSupporter) return;
  if (organization.status === 'deleted') throw new AppError('organizationSuspended');
  if (organization.status === 'suspended' && !isAllowedWhileSuspended(request.method, request.path)) {
    throw new AppError('organizationLocked');
  }
};
