import { AppError } from '../../../../domain/shared/app-error';
import { isCustomerBound } from '../../../../application/shared/actor';
import { type Gate, isSafeMethod, under } from './gate-request';

/** Organization-wide areas, closed to every customer-bound caller (Authentication > API tokens, rule 2). */
const CLOSED_AREAS = [
  '/api/organizations',
  '/api/users',
  '/api/admin',
  '/api/platform-admin',
  '/api/escalation-config',
  '/api/custom-pricing',
  '/api/custom-fields',
  '/api/im',
  '/api/notifications/send-alert',
  '/api/customers/bulk',
];

export function isClosedToCustomerScope(method: string, path: string): boolean {
  if (CLOSED_AREAS.some((area) => under(path, area))) return true;
  if (path === '/api/organization') return method !== 'GET' && method !== 'HEAD';
  if (path.startsWith('/api/organization/')) return true;
  if (under(path, '/api/package-configs')) return !isSafeMethod(method);
  if (path === '/api/customers') return method === 'POST';
  if (/^\/api\/customers\/[^/]+$/.test(path) && path !== '/api/customers/sms-usage') return method === 'DELETE';
  return false;
}

/** Customer-scoped tokens and customer-bound sessions alike: 403 customerScopedTokenForbidden. */
export const customerScopeGate: Gate = (caller, request) => {
  if (isCustomerBound(caller.actor) && isClosedToCustomerScope(request.method, request.path)) {
    throw new AppError('customerScopedTokenForbidden');
  }
};
