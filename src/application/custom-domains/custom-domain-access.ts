import type { CustomDomainKind } from '../../domain/custom-domains/custom-domain';
import { requireOrgAdmin, requireWriter, type Actor } from '../shared/actor';

/**
 * Who changes custom domains: a white-label host speaks for the whole organization, so only its
 * administrators; a status page's host follows the page, so the writers (admins, editors) who
 * manage that page, customer-scoped ones included for their own customer's page.
 */
export function requireDomainManager(actor: Actor, kind: CustomDomainKind): void {
  if (kind === 'whiteLabel') requireOrgAdmin(actor);
  else requireWriter(actor);
}
