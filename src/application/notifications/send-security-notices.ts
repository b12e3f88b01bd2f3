import type { SecurityNoticeEvent } from '../../domain/identity/events';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { DirectDeliveries, DirectMessage, SecurityNoticeFeed } from './ports';

/** The direct e-mails a security notice becomes: one to each administrator it names, its subject and body as they are. */
export function securityNoticeMessages(id: number, event: SecurityNoticeEvent): DirectMessage[] {
  return event.administrators.map((administrator) => ({
    organizationId: event.organizationId,
    customerId: null,
    recipient: { type: 'email', address: administrator.email },
    event: event.kind,
    subject: event.subject,
    text: event.body,
    dedupKey: `securityNotice:${id}:${administrator.userId}`,
  }));
}

/**
 * Turns the identity context's security notices into direct e-mails to the administrators each
 * names, in the transaction that marks the notices sent: a notice is sent once (the messages'
 * dedup keys make a retried batch write nothing twice), and concurrent workers take different rows.
 * Answers how many notices it handled.
 */
export class SendSecurityNotices {
  constructor(
    private readonly feed: SecurityNoticeFeed,
    private readonly deliveries: DirectDeliveries,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(limit = 100): Promise<number> {
    return this.tx.run(async (tx) => {
      const notices = await this.feed.next(limit, tx);
      if (notices.length === 0) return 0;
      const now = this.clock.now();
      await this.deliveries.enqueue(
        notices.flatMap((n) => securityNoticeMessages(n.id, n.event)),
        now,
        tx,
      );
      await this.feed.markSent(
        notices.map((n) => n.id),
        now,
        tx,
      );
      return notices.length;
    });
  }
}
