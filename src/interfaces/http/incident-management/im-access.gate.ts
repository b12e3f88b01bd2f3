import type { RequestHandler } from 'express';
import { AppError } from '../../../domain/shared/app-error';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import type { Caller } from '../../../application/identity/authenticate-caller';
import { isCustomerBound } from '../../../application/shared/actor';
import { under } from '../shared/gates/gate-request';
import type { AreaGate } from '../shared/router-deps';

/** The areas of incident management: every route under them passes this gate. */
export const IM_AREAS = ['/api/im', '/api/escalation-config'] as const;

/**
 * Alert-source ingest authenticates by the source token in its path (a monitoring tool holds no
 * session), so it is not a caller's route; its use case checks that the organization has IM on. On-call
 * calendar feeds likewise: calendar apps send the feed token in the URL and nothing else.
 */
const SOURCE_TOKEN_PATHS = ['/api/im/ingest', '/api/im/calendar'];

const IM_ROLES = new Set(['admin', 'editor', 'responder']);

/**
 * Who may use incident management, as a pure decision (Errors > Incident Management, in the table's
 * order: imAccessDenied is judged before imNotEnabled, so a refused caller learns nothing about the
 * organization's features). Customer-bound callers never get here over HTTP: the customer-scoped
 * denylist runs first, before routing, and answers customerScopedTokenForbidden for /api/im/** and
 * /api/escalation-config/** as Authentication rule 2 states; they are refused here too so the
 * decision holds on its own.
 */
export function imAccessDecision(caller: Caller | undefined): ErrorCode | null {
  if (!caller) return 'imAccessDenied';
  const { actor, organization } = caller;
  if (actor.kind === 'agent' || isCustomerBound(actor) || actor.isPlatformSupporter) return 'imAccessDenied';
  if (!IM_ROLES.has(actor.role)) return 'imAccessDenied';
  if (!organization.incidentManagementEnabled) return 'imNotEnabled';
  return null;
}

/**
 * Express middleware for the IM areas, after admission (which resolved the caller and ran the
 * common gates). No credential at all is imAccessDenied; a credential that failed to authenticate
 * keeps its 401, like everywhere else.
 */
export const imAccessGate: RequestHandler = (req, _res, next) => {
  const path = `${req.baseUrl}${req.path}`;
  if (SOURCE_TOKEN_PATHS.some((prefix) => under(path, prefix))) return next();
  if (req.auth?.failure) return next(req.auth.failure);
  const denial = imAccessDecision(req.auth?.caller);
  next(denial ? new AppError(denial) : undefined);
};

/** The IM gate as the host mounts it: over the IM areas, after admission and audit. */
export const imAreaGate: AreaGate = { paths: IM_AREAS, handler: imAccessGate };
