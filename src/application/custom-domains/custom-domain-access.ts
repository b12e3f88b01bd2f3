import { AppError } from '../../domain/shared/app-error';
import type { CustomDomain, CustomDomainKind } from '../../domain/custom-domains/custom-domain';
import { requireAction, type Actor } from '../shared/actor';
import type { CustomDomainRepository } from './ports';

/**
 * Who changes custom domains: a white-label host speaks for the whole organization, so only its
 * administrators; a status page's host follows the page, so the writers (admins, editors) who
 * manage that page, customer-scoped ones included for their own customer's page.
 */
export function requireDomainManager(actor: Actor, kind: CustomDomainKind): void {
  requireAction(actor, kind === 'whiteLabel' ? 'whiteLabel.manage' : 'customDomain.manage');
}

/** The entry the caller may change (customDomainNotFound when it is not theirs to see; the kind's managers only). */
export async function managedDomain(domains: CustomDomainRepository, actor: Actor, id: string, now: Date): Promise<CustomDomain> {
  const domain = await domains.findByRef(actor.scope, id, now);
  if (!domain) throw new AppError('customDomainNotFound');
  requireDomainManager(actor, domain.kind);
  return domain;
}
