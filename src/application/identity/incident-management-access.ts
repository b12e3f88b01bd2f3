import type { ErrorCode } from '../../domain/shared/error-codes';
import { isCustomerBound } from '../shared/actor';
import type { Caller } from './authenticate-caller';

const IM_ROLES = new Set(['admin', 'editor', 'responder']);

/**
 * Who may use incident management, as a pure decision (Errors > Incident Management, in the table's
 * order: imAccessDenied is judged before imNotEnabled, so a refused caller learns nothing about the
 * organization's features). It reads only the caller and the organization's switch, both this
 * context's: the IM gate applies it to every IM route, the session reports it (`incidentManagement`).
 * Customer-bound callers never reach the gate over HTTP (the customer-scoped denylist answers
 * customerScopedTokenForbidden first); they are refused here too so the decision holds on its own.
 */
export function imAccessDecision(caller: Caller | undefined): Extract<ErrorCode, 'imAccessDenied' | 'imNotEnabled'> | null {
  if (!caller) return 'imAccessDenied';
  const { actor, organization } = caller;
  if (actor.kind === 'agent' || isCustomerBound(actor) || actor.isPlatformSupporter) return 'imAccessDenied';
  if (!IM_ROLES.has(actor.role)) return 'imAccessDenied';
  if (!organization.incidentManagementEnabled) return 'imNotEnabled';
  return null;
}

/** What incident management is to a caller, said without a call that fails (the session's `incidentManagement`). */
export type IncidentManagementAccess = 'enabled' | 'notEnabled' | 'accessDenied';

export function incidentManagementFor(caller: Caller): IncidentManagementAccess {
  const denial = imAccessDecision(caller);
  return denial === null ? 'enabled' : denial === 'imNotEnabled' ? 'notEnabled' : 'accessDenied';
}
