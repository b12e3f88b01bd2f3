import type { RequestHandler } from 'express';
import { AppError } from '../../../domain/shared/app-error';
import { imAccessDecision } from '../../../application/identity/incident-management-access';
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

/** The decision itself is identity's (the caller and the organization's switch): see there. */
export { imAccessDecision };

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
