import { AppError } from '../shared/app-error';
import type { Role } from './role';
import type { User } from './user';

export interface UserChange {
  role?: Role;
  isActive?: boolean;
  /** Deleting the account altogether. */
  remove?: boolean;
}

export interface UserChangeContext {
  actorUserId: string | null;
  actorIsPlatformAdmin: boolean;
  /** Active, organization-wide administrators of the target's organization, the target included. */
  activeAdminCount: number;
}

/**
 * The rules of changing another user (Errors > Token, MFA, scope and account gates):
 * - a user with a platform flag is changed by platform admins only (globalUserProtected);
 * - the last active administrator cannot be demoted, deactivated or deleted (lastAdminProtected),
 *   checked first so a sole administrator learns the real reason;
 * - nobody changes their own role, deactivates or deletes themselves (userSelfChangeForbidden).
 */
export function assertUserChangeAllowed(target: User, change: UserChange, context: UserChangeContext): void {
  if (target.hasPlatformFlag && !context.actorIsPlatformAdmin) throw new AppError('globalUserProtected');
  const changesRole = change.role !== undefined && change.role !== target.role;
  const deactivates = change.isActive === false && target.isActive;
  const losesAdmin = target.isActiveAdmin && target.customerId === null && (changesRole || deactivates || change.remove);
  if (losesAdmin && context.activeAdminCount <= 1) throw new AppError('lastAdminProtected');
  const isSelf = context.actorUserId === target.id;
  if (isSelf && (changesRole || deactivates || change.remove)) throw new AppError('userSelfChangeForbidden');
}
