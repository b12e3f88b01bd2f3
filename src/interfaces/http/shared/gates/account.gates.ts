import { AppError } from '../../../../domain/shared/app-error';
import { type Gate, isSafeMethod, under } from './gate-request';

/** A deactivated user, and every token they minted, is refused. */
export const accountActiveGate: Gate = (caller) => {
  if (!caller.user.isActive) throw new AppError('accountDeactivated');
};

/**
 * Cookie-authenticated writes must come from this site: an Origin that is ours or trusted, and no
 * `Sec-Fetch-Site: cross-site`. Bearer credentials are not sent ambiently, so they are unaffected.
 */
export const csrfGate =
  (trustedOrigins: readonly string[]): Gate =>
  (_caller, request) => {
    if (!request.viaCookie || isSafeMethod(request.method)) return;
    if (request.secFetchSite === 'cross-site') throw new AppError('csrfOriginRejected');
    if (request.origin === undefined) return;
    if (!trustedOrigins.includes(request.origin) && request.origin !== request.ownOrigin()) {
      throw new AppError('csrfOriginRejected');
    }
  };

/**
 * Organizations may require two-step verification per role. Until enrolled, such callers reach only
 * the auth endpoints they need to enrol (and sign out).
 */
export const mfaEnrollmentGate: Gate = (caller, request) => {
  const { actor, organization, user } = caller;
  if (actor.kind === 'agent' || user.twoFactorEnabled || !organization.requiresMfaFor(actor.role)) return;
  if (under(request.path, '/api/auth')) return;
  throw new AppError('mfa_enrollment_required');
};
