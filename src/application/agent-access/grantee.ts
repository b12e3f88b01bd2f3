import { AppError } from '../../domain/shared/app-error';
import type { Grantee } from '../../domain/agent-access/agent-registration';
import type { Actor } from '../shared/actor';
import type { UserRepository } from '../identity/ports';

/**
 * The person behind a caller, as a claim grantee. Platform admins and supporters act across tenants,
 * so their access does not resolve to one organization or customer (scope null).
 */
export async function granteeOf(actor: Actor, users: UserRepository): Promise<Grantee> {
  if (actor.kind === 'agent' || actor.userId === null) throw new AppError('nonUserSessionForbidden');
  const user = await users.findForSignIn(actor.userId);
  if (!user) throw new AppError('unauthorized');
  const crossTenant = user.hasPlatformFlag || actor.isPlatformAdmin || actor.isPlatformSupporter;
  return { userId: user.id, email: user.email, scope: crossTenant ? null : actor.scope };
}
