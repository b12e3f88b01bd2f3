import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';

/**
 * The platform staff's views: platform admins and supporters, signed in as people. Tokens (even a
 * platform admin's) and every organization user, organization admins included, answer 403
 * platformAdminRequired, the code the platform-admin routes already use. Actions on top of the
 * views call requirePlatformAdmin, which refuses supporters with the same code.
 */
export function requirePlatformStaff(actor: Actor): void {
  if (actor.kind !== 'session' || !(actor.isPlatformAdmin || actor.isPlatformSupporter)) {
    throw new AppError('platformAdminRequired');
  }
}
