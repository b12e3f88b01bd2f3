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
  it('finishing an export runs in the transaction the runner handed', async () => {
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
    expect(tx.handed).to.have.length(1);
    expect(exports.joined).to.deep.equal([['finish', tx.handed[0]]]);
    // The link mail is enqueued in the transaction that marks the export ready.
    expect(mail.rows).to.have.length(1);
    expect(mail.enqueuedIn).to.deep.equal([tx.handed[0]]);
  });
});
