import { aReportsWorld } from '../../../support/builders/reports';
import { expect } from 'chai';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';

/** A report run is claimed and finished in the transaction the runner hands (docs/architecture.md). */
describe('report use cases: writes join the transaction they run in', () => {
  it('a scheduled run claims its slot and records its outcome in the one transaction', async () => {
    const tx = recordedTransactions();
    const { clock, runs, deliveries: mail, due, aReport } = aReportsWorld({ now: '2026-05-20T00:00:00Z', tx });
    await aReport({ recipients: ['ops@agency.example'] });
    clock.set('2026-06-01T12:00:00Z');
    expect(await due.execute()).to.deep.equal({ made: 1 });
    expect(tx.handed).to.have.length(1);
    expect(runs.joined).to.deep.equal([
      ['claim', tx.handed[0]],
      ['finish', tx.handed[0]],
    ]);
    // The report's mail is enqueued with the outcome it tells of.
    expect(mail.rows).to.have.length.greaterThan(0);
    expect(mail.enqueuedIn).to.deep.equal([tx.handed[0]]);
  });
});
