import { aDataExportWorld, exportIdOf } from '../../../support/builders/data-export';
import { expect } from 'chai';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';

const ID = exportIdOf(1);

/** The export worker marks an export ready in the transaction that enqueues its link mails (docs/architecture.md). */
describe('data-export use cases: writes join the transaction they run in', () => {
  it("every write of a round runs in a transaction the runner handed; finishing runs in the link mails' one", async () => {
    const tx = recordedTransactions();
    const { exports, mail, worker, queue } = aDataExportWorld({ tx });
    queue(1, { recipientEmails: ['ops@agency.example'], createdAt: new Date('2026-06-01T11:59:00Z') });
    expect(await worker.execute('worker-a')).to.deep.include({ generated: [ID] });
    // Every write of the round runs on a transaction the runner handed (none on the pool), each its own.
    const writes = exports.joined.map(([write]) => write);
    expect(writes.filter((write) => write !== 'progress')).to.deep.equal([
      'releaseLapsed',
      'claimNext',
      'finish',
      'claimNext',
      'expireDue',
    ]);
    expect(writes).to.include('progress');
    expect(exports.joined.map(([, handle]) => handle)).to.deep.equal(tx.handed);
    const finishedIn = exports.joined.find(([write]) => write === 'finish')![1];
    // The link mail is enqueued in the transaction that marks the export ready.
    expect(mail.rows).to.have.length(1);
    expect(mail.enqueuedIn).to.deep.equal([finishedIn]);
  });
});
