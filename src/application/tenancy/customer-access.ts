import { AppError } from '../../domain/shared/app-error';
import { ORGANIZATION_CONTROLLED_FIELDS } from '../../domain/tenancy/customer';
import { isCustomerBound, mayTake, type Actor } from '../shared/actor';

/** Customer rule 3 and the scope gate, again at the use case: customer-scoped callers are refused. */
export function requireOrganizationCaller(actor: Actor): void {
  if (isCustomerBound(actor)) throw new AppError('customerScopedTokenForbidden');
}

/**
 * A customer-scoped caller may change its own contact, billing, alert and notification details, but
 * not the terms its organization sets (status, package, self-service settings, pricing, custom fields).
 */
export function assertMayChangeCustomer(actor: Actor, change: object): void {
  if (mayTake(actor, 'customer.setTerms')) return;
  const fields = ORGANIZATION_CONTROLLED_FIELDS.filter((field) => (change as Record<string, unknown>)[field] !== undefined);
  if (fields.length > 0) {
    throw new AppError('customerScopedTokenForbidden', { fields }, 'Only the organization can change these fields');
  }
}
