import { CLOCK, type Clock } from '../../application/shared/clock';
import { ID_GENERATOR, type IdGenerator } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../application/shared/transaction';
import {
  CUSTOMER_DIRECTORY,
  ORGANIZATION_REPOSITORY,
  PASSWORD_HASHER,
  SECRET_TOKENS,
  USER_REPOSITORY,
} from '../../application/identity/ports';
import { Invitations } from '../../application/identity/invitations';
import { AUDIT_TRAIL } from '../../application/audit/ports';
import { SessionIssuer } from '../../application/identity/sessions';
import { INVITATION_MAILER, INVITATION_REPOSITORY, type InvitationMailer } from '../../application/identity/invitation-ports';
import { DIRECT_SENDERS, type DirectSenders } from '../../application/notifications/delivery-ports';
import { SqlInvitationRepository } from '../../infrastructure/identity/sql-invitation.repository';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL } from '../tokens';
import type { Single } from './bindings';

/** Invitations by e-mail: the ledger on the unit of work, the e-mail through the direct-message sender. */
export function bindInvitations({ single }: { single: Single }): void {
  single(INVITATION_REPOSITORY, (c) => new SqlInvitationRepository(c.get(POOL_SQL)));
  single(INVITATION_MAILER, (c) => {
    const ids = c.get<IdGenerator>(ID_GENERATOR);
    const clock = c.get<Clock>(CLOCK);
    const email = c.get<DirectSenders>(DIRECT_SENDERS).email;
    // Identity declares the port; the notifications' e-mail sender answers it here, at once, so the
    // inviting admin learns whether the message went out (the organization's SMTP, else the platform's).
    const mailer: InvitationMailer = {
      send: async (organizationId, to, mail) => {
        const outcome = await email.sendDirect({
          id: ids.uuid(),
          organizationId,
          customerId: null,
          recipient: { type: 'email', address: to },
          attempts: 0,
          content: { event: 'invitation', occurredAt: clock.now().toISOString(), subject: mail.subject, text: mail.text },
        });
        return outcome.verdict === 'delivered';
      },
    };
    return mailer;
  });
  single(
    Invitations,
    (c) =>
      new Invitations({
        invitations: c.get(INVITATION_REPOSITORY),
        users: c.get(USER_REPOSITORY),
        organizations: c.get(ORGANIZATION_REPOSITORY),
        customers: c.get(CUSTOMER_DIRECTORY),
        passwords: c.get(PASSWORD_HASHER),
        secrets: c.get(SECRET_TOKENS),
        sessions: c.get(SessionIssuer),
        mailer: c.get(INVITATION_MAILER),
        audit: c.get(AUDIT_TRAIL),
        tx: c.get<TransactionRunner>(TRANSACTION_RUNNER),
        ids: c.get(ID_GENERATOR),
        clock: c.get(CLOCK),
        publicBaseUrl: c.get<AppConfig>(CONFIG).publicBaseUrl,
      }),
  );
}
