import type { Clock } from '../shared/clock';
import type { Transaction } from '../shared/transaction';
import type { AdminNotifier, AdministratorDirectory, IdentityEvents } from './ports';

/**
 * Notifies an organization's administrators by publishing a security notice (an identity event)
 * that names them; the notifications context turns it into one e-mail to each. No administrator,
 * no notice.
 */
export class NotifyAdministrators implements AdminNotifier {
  constructor(
    private readonly directory: AdministratorDirectory,
    private readonly events: IdentityEvents,
    private readonly clock: Clock,
  ) {}

  async notifyAdministrators(organizationId: number, message: { subject: string; body: string }, tx: Transaction): Promise<void> {
    const administrators = await this.directory.activeAdministrators(organizationId, tx);
    if (administrators.length === 0) return;
    await this.events.publish(
      [
        {
          kind: 'identity.securityNotice',
          version: 1,
          organizationId,
          occurredAt: this.clock.now(),
          subject: message.subject,
          body: message.body,
          administrators,
        },
      ],
      tx,
    );
  }
}
