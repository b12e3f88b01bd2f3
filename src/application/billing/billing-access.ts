import { isOrgAdmin, type Actor } from '../shared/actor';
import { AppError } from '../../domain/shared/app-error';

/** Billing is for administrators of the organization and platform administrators (roleForbidden otherwise). */
export function requireBillingAdmin(actor: Actor): void {
  if (!actor.isPlatformAdmin && !isOrgAdmin(actor)) throw new AppError('roleForbidden');
}
