import { DownloadDataExport } from '../../../src/application/data-export/download-data-export';
import { GenerateDataExports } from '../../../src/application/data-export/generate-data-exports';
import { ListDataExports } from '../../../src/application/data-export/list-data-exports';
import { RequestDataExport } from '../../../src/application/data-export/request-data-export';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import type { DataExport } from '../../../src/domain/data-export/data-export';
import { ManualClock } from '../manual-clock';
import { immediateTransactions, sequentialIds } from '../fakes/shared-fakes';
import { plainSecrets } from '../fakes/identity-fakes';
import { FakeDirectDeliveries } from '../fakes/notifications-fakes';
import {
  FakeArchiveWriter,
  FakeDataExports,
  FakeExportFiles,
  FakeOrganizationMembers,
  RecordingExportTrigger,
} from '../fakes/data-export-fakes';

/** The settings the composition root reads from the configuration: a 6-hour cooldown, a minute's lease. */
export const DATA_EXPORT_SETTINGS = { cooldownHours: 6, publicBaseUrl: 'https://app.example', leaseMs: 60_000 };

/** The id of the `n`th export (`00000000-0000-4000-8000-00000000000n`). */
export const exportIdOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export interface DataExportWorldOptions {
  /** The clock's start (2026-06-01T12:00:00Z). */
  readonly now?: Date | string;
  /** The runner the use cases open their transactions with (one that runs at once). */
  readonly tx?: TransactionRunner;
}

/**
 * The data-export context on its fakes, wired as the composition root wires it: the export store,
 * the files and the archive writer, organization members (organization 1: admin-1 and user-2;
 * organization 2: other-admin), the job trigger, the link mails, and the use cases over them.
 * `queue` seeds the `n`th queued export of organization 1.
 */
export function aDataExportWorld(options: DataExportWorldOptions = {}) {
  const clock = new ManualClock(options.now ?? '2026-06-01T12:00:00Z');
  const tx = options.tx ?? immediateTransactions;
  const settings = DATA_EXPORT_SETTINGS;
  const exports = new FakeDataExports();
  const files = new FakeExportFiles();
  const writer = new FakeArchiveWriter(files);
  const mail = new FakeDirectDeliveries();
  const members = new FakeOrganizationMembers()
    .add(1, 'admin-1', 'Admin@Agency.example')
    .add(1, 'user-2', 'ops@agency.example')
    .add(2, 'other-admin', 'boss@other.example');
  const trigger = new RecordingExportTrigger();
  return {
    clock,
    tx,
    exports,
    files,
    writer,
    mail,
    members,
    trigger,
    request: new RequestDataExport(exports, members, trigger, settings, sequentialIds(), clock, tx),
    list: new ListDataExports(exports),
    download: new DownloadDataExport(exports, files, plainSecrets, clock),
    worker: new GenerateDataExports(exports, writer, files, mail, plainSecrets, tx, settings, clock),
    /** The `n`th export of organization 1, queued by admin-1 a minute ago for Ada and ops. */
    queue: (n: number, over: Partial<DataExport> = {}) =>
      exports.seed({
        id: exportIdOf(n),
        organizationId: 1,
        requestedBy: 'admin-1',
        recipientEmails: ['Ada@Agency.example', 'ops@agency.example'],
        status: 'queued',
        rowsDone: 0,
        rowsTotal: null,
        attempts: 0,
        fileBytes: null,
        error: null,
        createdAt: new Date(clock.now().getTime() - 60_000 + n),
        startedAt: null,
        finishedAt: null,
        expiresAt: null,
        ...over,
      }),
  };
}

export type DataExportWorld = ReturnType<typeof aDataExportWorld>;
