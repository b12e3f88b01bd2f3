import { AppError } from '../shared/app-error';
import type { Role } from '../identity/role';
import type { AgentRegistration } from './agent-registration';
import { delegableScopes, isSubset } from './scopes';

/** The account an approved ID-JAG registration is bound to, as it is now. */
export interface BoundAccount {
  readonly id: string;
  readonly isActive: boolean;
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly role: Role;
}

const refuse = (reason: 'scope_exceeds_grant' | 'binding_changed' | 'no_human' | 'nothing_left') =>
  new AppError('invalid_grant', { error_description: reason });

/**
 * The scopes an approved ID-JAG agent gets for one assertion, or invalid_grant with the reason:
 * no_human (the approving account is gone or deactivated), binding_changed (the assertion now maps
 * to another account, or the account moved tenant), scope_exceeds_grant (asks beyond the approval),
 * nothing_left (what it asks for is no longer delegable by the account's role).
 */
export function idJagGrantScopes(input: {
  registration: AgentRegistration;
  bound: BoundAccount | null;
  matchedUserId: string | null;
  requestedScopes: string[] | null;
}): string[] {
  const { registration, bound } = input;
  if (!bound || !bound.isActive) throw refuse('no_human');
  const sameTenant = bound.organizationId === registration.organizationId && bound.customerId === registration.customerId;
  if (input.matchedUserId !== bound.id || !sameTenant) throw refuse('binding_changed');
  const requested = input.requestedScopes ?? registration.scopes;
  if (!isSubset(requested, registration.scopes)) throw refuse('scope_exceeds_grant');
  const delegable = delegableScopes(bound.role);
  const left = requested.filter((scope) => delegable.includes(scope as never));
  if (left.length === 0) throw refuse('nothing_left');
  return left;
}
