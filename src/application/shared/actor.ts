import type { Role } from '../../domain/identity/role';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import { AppError } from '../../domain/shared/app-error';
import type { ErrorCode } from '../../domain/shared/error-codes';
import { isPermitted, permissionsOf, type ActionName, type Principal } from '../../domain/identity/permissions';

/** How the caller proved who it is: a signed-in session, a wsm_ API token or a wsma_ agent token. */
export type CallerKind = 'session' | 'apiToken' | 'agent';

/** Who is calling a use case, already authenticated by the host. */
export interface Actor {
  readonly kind: CallerKind;
  /** The signed-in user, the user who minted the token, or the agent's authorizing user. */
  readonly userId: string | null;
  readonly role: Role;
  readonly scope: TenantScope;
  readonly isPlatformAdmin: boolean;
  readonly isPlatformSupporter: boolean;
  readonly sessionId: string | null;
  readonly tokenId: string | null;
  /** The user behind the caller has two-step verification on. */
  readonly mfaEnabled: boolean;
  /** Last verified second factor of this session (sessions only). */
  readonly stepUpVerifiedAt: Date | null;
  /** OAuth scopes of an agent token; empty for other callers. */
  readonly agentScopes: readonly string[];
}

export const isCustomerBound = (actor: Actor): boolean => actor.scope.customerId !== null;

export const isOrgAdmin = (actor: Actor): boolean => actor.role === 'admin' && !isCustomerBound(actor);

/** Use cases that need a person (not a token) call this first. */
export function requireUserSession(actor: Actor): asserts actor is Actor & { userId: string; sessionId: string } {
  if (actor.kind !== 'session' || actor.userId === null || actor.sessionId === null) {
    throw new AppError('nonUserSessionForbidden');
  }
}

/** The role rules' view of a caller. */
export const principalOf = (actor: Actor): Principal => ({ role: actor.role, customerScoped: isCustomerBound(actor) });

/** Whether the role gates (domain/identity/permissions.ts) let the caller take an action. */
export const mayTake = (actor: Actor, action: ActionName): boolean => isPermitted(principalOf(actor), action);

/** What the caller may do, per resource (`can` of the session), from the same table `requireAction` reads. */
export const permissionsOfActor = (actor: Actor): Record<string, Record<string, boolean>> => permissionsOf(principalOf(actor));

/** The role gate of a use case: `roleForbidden` (or the code given) unless PERMISSIONS lets the caller take the action. */
export function requireAction(actor: Actor, action: ActionName, refusal: ErrorCode = 'roleForbidden'): void {
  if (!mayTake(actor, action)) throw new AppError(refusal);
}
