import { AppError } from '../../domain/shared/app-error';
import type { OrganizationSmtp } from '../../domain/notifications/organization-smtp';
import { type Actor, requireAction } from '../shared/actor';
import type { OrganizationSmtpStore } from './ports';

/** The organization's SMTP settings (administrators); smtpNotConfigured while the platform's server is used. */
export class GetOrganizationSmtp {
  constructor(private readonly store: OrganizationSmtpStore) {}

  async execute(actor: Actor): Promise<OrganizationSmtp> {
    requireAction(actor, 'smtp.manage');
    const settings = await this.store.get(actor.scope.organizationId);
    if (!settings) throw new AppError('smtpNotConfigured');
    return settings;
  }
}
