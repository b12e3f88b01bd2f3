import { AppError } from '../../domain/shared/app-error';
import type { MonitorEditor } from '../../domain/monitoring/ownership';
import { isCustomerBound, type Actor } from '../shared/actor';
import type { AuthorizingUsers } from './ports';

/** The ownership rules' view of a caller. */
export const editorOf = (actor: Actor): MonitorEditor => ({ role: actor.role, customerScoped: isCustomerBound(actor) });

/**
 * Agent callers act for a person: creating tags and change requests needs that person to still be
 * an active user of the organization (authorizingUserUnresolved otherwise).
 */
export async function assertAuthorizingUser(actor: Actor, users: AuthorizingUsers): Promise<void> {
  if (actor.kind !== 'agent') return;
  if (actor.userId === null || !(await users.isActive(actor.scope.organizationId, actor.userId))) {
    throw new AppError('authorizingUserUnresolved');
  }
}
