import { expect } from 'chai';
import { SendSecurityNotices } from '../../../../src/application/notifications/send-security-notices';
import type { PendingSecurityNotice, SecurityNoticeFeed } from '../../../../src/application/notifications/ports';
import type { Transaction } from '../../../../src/application/shared/transaction';
import { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';
import { ManualClock } from '../../../support/manual-clock';

/** The outbox rows as SqlSecurityNoticeFeed hands them out: unsent ones, each read and marked with its transaction. */
class RecordingNoticeFeed implements SecurityNoticeFeed {
  readonly calls: Array<{ call: 'next' | 'markSent'; tx: Transaction | undefined }> = [];
  readonly sent = new Set<number>();
  constructor(private readonly notices: PendingSecurityNotice[]) {}
  async next(limit: number, tx?: Transaction) {
    this.calls.push({ call: 'next', tx });
    return this.notices.filter((n) => !this.sent.has(n.id)).slice(0, limit);
  }
  async markSent(ids: readonly number[], _at: Date, tx?: Transaction) {
    this.calls.push({ call: 'markSent', tx });
    for (const id of ids) this.sent.add(id);
  }
}

/** The security notices are read (locked) and marked sent in the runner's transaction (docs/architecture.md). */
describe('SendSecurityNotices: the feed and the messages join the transaction it runs in', () => {
  it('locks the pending notices and marks them sent on the transaction the runner handed it', async () => {
    const clock = new ManualClock();
    const feed = new RecordingNoticeFeed([
      {
        id: 1,
        event: {
          kind: 'identity.securityNotice',
          version: 1,
          organizationId: 1,
          occurredAt: clock.now(),
          subject: 'New sign-in',
          body: 'Someone signed in.',
          administrators: [{ userId: 'admin-1', email: 'admin@example.test' }],
        },
      },
    ]);
    const deliveries = new FakeDirectDeliveries();
    const transactions = recordedTransactions();
    expect(await new SendSecurityNotices(feed, deliveries, transactions, clock).execute()).to.equal(1);
    expect(deliveries.rows).to.have.length(1);
    expect(transactions.handed).to.have.length(1);
    expect(feed.calls).to.deep.equal([
      { call: 'next', tx: transactions.handed[0] },
      { call: 'markSent', tx: transactions.handed[0] },
    ]);
    expect(feed.calls.every(({ tx }) => tx === transactions.handed[0])).to.equal(true);
    expect(deliveries.enqueuedIn, 'the messages commit with the notices marked sent').to.deep.equal([transactions.handed[0]]);
  });
});
