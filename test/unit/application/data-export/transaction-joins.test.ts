import { expect } from 'chai';
import { GenerateDataExports } from '../../../../src/application/data-export/generate-data-exports';
import { ManualClock } from '../../../support/manual-clock';
import { recordedTransactions } from '../../../support/fakes/shared-fakes';
import { plainSecrets } from '../../../support/fakes/identity-fakes';
import { FakeDirectDeliveries } from '../../../support/fakes/notifications-fakes';
import { FakeArchiveWriter, FakeDataExports, FakeExportFiles } from '../../../support/fakes/data-export-fakes';

const ID = '00000000-0000-4000-8000-000000000001';

/** The export worker marks an export ready in the transaction that enqueues its link mails (docs/architecture.md). */
describe('data-export use cases: writes join the transaction they run in', () => {
  it("every write of a round runs in a transaction the runner handed; finishing runs in the link mails' one", async () => {
    const clock = new ManualClock('2026-06-01T12:00:00Z');
    const exports = new FakeDataExports();
    const files = new FakeExportFiles();
    const tx = recordedTransactions();
    const mail = new FakeDirectDeliveries();
    const settings = { cooldownHours: 6, publicBaseUrl: 'https://app.example', leaseMs: 60_000 };
    const worker = new GenerateDataExports(exports, new FakeArchiveWriter(files), files, mail, plainSecrets, tx, settings, clock);
    exports.seed({
      id: ID,
      organizationId: 1,
      requestedBy: 'admin-1',
      recipientEmails: ['ops@agency.example'],
      status: 'queued',
      rowsDone: 0,
      rowsTotal: null,
      attempts: 0,
      fileBytes: null,
      error: null,
      createdAt: new Date('2026-06-01T11:59:00Z'),
      startedAt: null,
      finishedAt: null,
      expiresAt: null,
    });
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
