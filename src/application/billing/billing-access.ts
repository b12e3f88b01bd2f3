import { requireAction, type Actor } from '../shared/actor';

/** Billing is for administrators of the organization (billing.manage) and platform administrators (roleForbidden otherwise). */
export function requireBillingAdmin(actor: Actor): void {
  if (!actor.isPlatformAdmin) requireAction(actor, 'billing.manage');
}
