import type { Transaction } from '../shared/transaction';
import type { DataExport, ExportStatus } from '../../domain/data-export/data-export';
import { token } from '../shared/token';

/** How an export's archive is reached: its file and the digest of the secret its download link carries. */
export interface ExportFile {
  readonly organizationId: number;
  readonly path: string;
  readonly downloadTokenHash: string;
}

/**
 * Data exports. `add` refuses (false) a second export queued or generating in one organization (a
 * unique index), so two racing requests end with one. The worker's writes (`progress`, `finish`,
 * `fail`) take effect only while its lease holds (false when it lapsed and the export was taken).
 */
export interface DataExportRepository {
  add(e: DataExport, tx: Transaction): Promise<boolean>;
  find(organizationId: number, id: string): Promise<DataExport | null>;
  /** Newest first. */
  list(organizationId: number, limit: number): Promise<DataExport[]>;
  running(organizationId: number): Promise<DataExport | null>;
  lastNotFailed(organizationId: number): Promise<DataExport | null>;
  /** Leases the oldest queued export: generating, one more attempt, started now. */
  claimNext(owner: string, now: Date, leaseMs: number, tx: Transaction): Promise<DataExport | null>;
  progress(id: string, owner: string, rowsDone: number, rowsTotal: number, leaseUntil: Date, tx: Transaction): Promise<boolean>;
  finish(
    id: string,
    owner: string,
    file: Omit<ExportFile, 'organizationId'> & { bytes: number },
    now: Date,
    expiresAt: Date,
    tx: Transaction,
  ): Promise<boolean>;
  fail(id: string, owner: string, error: string, now: Date, tx: Transaction): Promise<boolean>;
  /** Exports generating whose lease lapsed (their worker stopped): moved to `status`. Answers those moved. */
  releaseLapsed(now: Date, decide: (e: DataExport) => Extract<ExportStatus, 'queued' | 'failed'>, tx: Transaction): Promise<DataExport[]>;
  /** Ready exports past their window: marked expired; answers their files to delete. */
  expireDue(now: Date, tx: Transaction): Promise<Array<{ id: string; path: string | null }>>;
  /**
   * When a round next has work: the oldest queued export's request, the soonest lease of one
   * generating (a stopped worker's lapses then), the soonest expiry of a ready archive; null: none.
   */
  nextDueAt(): Promise<Date | null>;
  fileOf(id: string): Promise<ExportFile | null>;
}
export const DATA_EXPORT_REPOSITORY = token<DataExportRepository>('DataExportRepository');

/** Rows written so far of the rows the archive will hold. */
export type ExportProgressListener = (rowsDone: number, rowsTotal: number) => Promise<void>;

/**
 * Writes one organization's data as an archive at `path` (a zip of JSON Lines per resource with a
 * manifest), streaming with bounded memory, reporting progress as it goes. Answers the bytes written.
 */
export interface ExportArchiveWriter {
  write(organizationId: number, path: string, onProgress: ExportProgressListener): Promise<{ bytes: number }>;
}
export const EXPORT_ARCHIVE_WRITER = token<ExportArchiveWriter>('ExportArchiveWriter');

/** Where archives live (under DATA_DIR) and how they go. */
export interface ExportFiles {
  pathFor(exportId: string): string;
  remove(path: string): Promise<void>;
  readable(path: string): Promise<boolean>;
}
export const EXPORT_FILES = token<ExportFiles>('ExportFiles');

/** The organization's active members (their e-mail addresses are the recipients an export may name). */
export interface OrganizationMembers {
  list(organizationId: number): Promise<Array<{ userId: string; email: string }>>;
}
export const ORGANIZATION_MEMBERS = token<OrganizationMembers>('OrganizationMembers');

/** Asks the job system to generate queued exports now rather than at its next turn (a no-op where no jobs run). */
export interface ExportJobTrigger {
  generateSoon(): Promise<void>;
}
export const EXPORT_JOB_TRIGGER = token<ExportJobTrigger>('ExportJobTrigger');

export interface DataExportSettings {
  readonly cooldownHours: number;
  /** The service's public address, for the download link. */
  readonly publicBaseUrl: string;
  /** How long a worker's claim holds without news; progress renews it. */
  readonly leaseMs: number;
}
export const DATA_EXPORT_SETTINGS = token<DataExportSettings>('DataExportSettings');
