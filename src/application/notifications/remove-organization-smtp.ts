import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import { type Actor, requireAction } from '../shared/actor';
import type { OrganizationSmtpStore } from './ports';

/** Forgets the organization's SMTP server: its email channels go through the platform's again. */
export class RemoveOrganizationSmtp {
  constructor(
    private readonly store: OrganizationSmtpStore,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor): Promise<void> {
    requireAction(actor, 'smtp.manage');
    if (!(await this.tx.run((tx) => this.store.remove(actor.scope.organizationId, tx)))) throw new AppError('smtpNotConfigured');
  }
}
