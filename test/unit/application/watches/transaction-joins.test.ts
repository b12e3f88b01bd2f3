import { expect } from 'chai';
import { aWatchedDomain, aWatchedIp, aWatchesWorld } from '../../../support/builders/watches';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';

const DAY = 86_400_000;
const recipients = { email: 'owner@shop.example', phone: null };

/** A sweep that has messages to send records its result in the transaction that enqueues them (docs/architecture.md). */
describe('watch sweeps: the result joins the transaction of its messages', () => {
  it('records a domain and an IP with news in the transaction the runner handed', async () => {
    const tx = recordedTransactions();
    const { clock, results, targets, directs, answers, sweep } = aWatchesWorld({ tx });
    answers.expiresAt = new Date(clock.now().getTime() + 3 * DAY);
    answers.listedOn = ['zen'];
    targets.domains.push(aWatchedDomain({ recipients }));
    targets.ips.push(aWatchedIp({ recipients }));
    await sweep();
    expect(directs.rows).to.have.length(2);
    expect(tx.handed).to.have.length(2);
    expect(results.joined).to.have.deep.members([
      ['recordDomainExpiry', tx.handed[0]],
      ['recordIpDnsbl', tx.handed[1]],
    ]);
    // Each sweep's notice is enqueued in the transaction that recorded its result.
    expect(directs.enqueuedIn).to.have.deep.members([tx.handed[0], tx.handed[1]]);
  });
});
