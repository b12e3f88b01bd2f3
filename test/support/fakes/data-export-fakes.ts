import type { Transaction } from '../../../src/application/shared/transaction';
import type { Joined } from './monitoring-fakes';
import type { DataExport, ExportStatus } from '../../../src/domain/data-export/data-export';
import type {
  DataExportRepository,
  ExportArchiveWriter,
  ExportFile,
  ExportFiles,
  ExportJobTrigger,
  ExportProgressListener,
  OrganizationMembers,
} from '../../../src/application/data-export/ports';

interface Row {
  export: DataExport;
  path: string | null;
  downloadTokenHash: string | null;
  leaseOwner: string | null;
  leaseUntil: Date | null;
}

/**
 * Exports as the SQL adapter keeps them (ids compared as uuids, without case): one queued or generating per organization (`add` answers
 * false for a second), the worker's writes hold only while its lease does, copies out.
 */
export class FakeDataExports implements DataExportRepository {
  readonly joined: Joined = [];
  readonly rows = new Map<string, Row>();
  /** The next `add` loses the race the unique index settles (another request queued one first). */
  loseNextAdd: DataExport | null = null;

  /** Puts an export in any state, as the test needs it. */
  seed(e: DataExport, file: { path: string; downloadTokenHash: string } | null = null, lease?: { owner: string; until: Date }): DataExport {
    this.rows.set(e.id, {
      export: { ...e },
      path: file?.path ?? null,
      downloadTokenHash: file?.downloadTokenHash ?? null,
      leaseOwner: lease?.owner ?? null,
      leaseUntil: lease?.until ?? null,
    });
    return e;
  }

  get(id: string): DataExport | undefined {
    const row = this.rows.get(id);
    return row ? { ...row.export } : undefined;
  }

  async add(e: DataExport, tx?: Transaction) {
    this.joined.push(['add', tx]);
    if (this.loseNextAdd) {
      this.seed(this.loseNextAdd);
      this.loseNextAdd = null;
    }
    if ([...this.rows.values()].some((r) => r.export.organizationId === e.organizationId && isActive(r.export.status))) return false;
    this.seed(e);
    return true;
  }
  async find(organizationId: number, id: string) {
    const row = this.rows.get(id.toLowerCase());
    return row && row.export.organizationId === organizationId ? { ...row.export } : null;
  }
  async list(organizationId: number, limit: number) {
    return this.ofOrganization(organizationId).slice(0, limit);
  }
  async running(organizationId: number) {
    return this.ofOrganization(organizationId).find((e) => isActive(e.status)) ?? null;
  }
  async lastNotFailed(organizationId: number) {
    return this.ofOrganization(organizationId).find((e) => e.status !== 'failed') ?? null;
  }
  async claimNext(owner: string, now: Date, leaseMs: number, tx?: Transaction) {
    this.joined.push(['claimNext', tx]);
    const next = [...this.rows.values()]
      .filter((r) => r.export.status === 'queued')
      .sort((a, b) => a.export.createdAt.getTime() - b.export.createdAt.getTime())[0];
    if (!next) return null;
    next.export = {
      ...next.export,
      status: 'generating',
      attempts: next.export.attempts + 1,
      startedAt: next.export.startedAt ?? now,
      rowsDone: 0,
    };
    next.leaseOwner = owner;
    next.leaseUntil = new Date(now.getTime() + leaseMs);
    return { ...next.export };
  }
  async progress(id: string, owner: string, rowsDone: number, rowsTotal: number, leaseUntil: Date, tx?: Transaction) {
    this.joined.push(['progress', tx]);
    const row = this.leased(id, owner);
    if (!row) return false;
    row.export = { ...row.export, rowsDone, rowsTotal };
    row.leaseUntil = leaseUntil;
    return true;
  }
  async finish(
    id: string,
    owner: string,
    file: Omit<ExportFile, 'organizationId'> & { bytes: number },
    now: Date,
    expiresAt: Date,
    tx?: Transaction,
  ) {
    this.joined.push(['finish', tx]);
    const row = this.leased(id, owner);
    if (!row) return false;
    row.export = {
      ...row.export,
      status: 'ready',
      fileBytes: file.bytes,
      finishedAt: now,
      expiresAt,
      rowsDone: row.export.rowsTotal ?? row.export.rowsDone,
    };
    Object.assign(row, { path: file.path, downloadTokenHash: file.downloadTokenHash, leaseOwner: null, leaseUntil: null });
    return true;
  }
  async fail(id: string, owner: string, error: string, now: Date, tx?: Transaction) {
    this.joined.push(['fail', tx]);
    const row = this.leased(id, owner);
    if (!row) return false;
    row.export = { ...row.export, status: 'failed', error: error.slice(0, 1000), finishedAt: now };
    Object.assign(row, { leaseOwner: null, leaseUntil: null });
    return true;
  }
  async releaseLapsed(now: Date, decide: (e: DataExport) => 'queued' | 'failed', tx?: Transaction) {
    this.joined.push(['releaseLapsed', tx]);
    const moved: DataExport[] = [];
    for (const row of this.rows.values()) {
      if (row.export.status !== 'generating' || !row.leaseUntil || row.leaseUntil.getTime() >= now.getTime()) continue;
      const status = decide({ ...row.export });
      row.export =
        status === 'failed'
          ? { ...row.export, status, error: `The export stopped ${row.export.attempts} times before it was done`, finishedAt: now }
          : { ...row.export, status };
      Object.assign(row, { leaseOwner: null, leaseUntil: null });
      moved.push({ ...row.export });
    }
    return moved;
  }
  async expireDue(now: Date, tx?: Transaction) {
    this.joined.push(['expireDue', tx]);
    const due = [...this.rows.values()].filter(
      (r) => r.export.status === 'ready' && r.export.expiresAt !== null && r.export.expiresAt.getTime() <= now.getTime(),
    );
    for (const row of due) row.export = { ...row.export, status: 'expired' };
    return due.map((r) => ({ id: r.export.id, path: r.path }));
  }
  async nextDueAt() {
    const times = [...this.rows.values()].flatMap((r) => {
      if (r.export.status === 'queued') return [r.export.createdAt.getTime()];
      if (r.export.status === 'generating' && r.leaseUntil) return [r.leaseUntil.getTime() + 1];
      if (r.export.status === 'ready' && r.export.expiresAt) return [r.export.expiresAt.getTime()];
      return [];
    });
    return times.length > 0 ? new Date(Math.min(...times)) : null;
  }
  async fileOf(id: string) {
    const row = this.rows.get(id.toLowerCase());
    return row?.path && row.downloadTokenHash
      ? { organizationId: row.export.organizationId, path: row.path, downloadTokenHash: row.downloadTokenHash }
      : null;
  }

  /** Another worker took the export over (its lease lapsed and was claimed again). */
  steal(id: string, owner: string): void {
    this.rows.get(id)!.leaseOwner = owner;
  }

  private leased(id: string, owner: string): Row | null {
    const row = this.rows.get(id);
    return row && row.leaseOwner === owner && row.export.status === 'generating' ? row : null;
  }

  private ofOrganization(organizationId: number): DataExport[] {
    return [...this.rows.values()]
      .map((r) => ({ ...r.export }))
      .filter((e) => e.organizationId === organizationId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }
}

const isActive = (status: ExportStatus) => status === 'queued' || status === 'generating';

/** Archive files by path: what exists, and what was removed. */
export class FakeExportFiles implements ExportFiles {
  readonly existing = new Set<string>();
  readonly removed: string[] = [];
  pathFor(exportId: string): string {
    return `/data/exports/${exportId}.zip`;
  }
  async remove(path: string): Promise<void> {
    this.existing.delete(path);
    this.removed.push(path);
  }
  async readable(path: string): Promise<boolean> {
    return this.existing.has(path);
  }
}

/**
 * Writes `rows` rows in steps of `step`, reporting progress after each, into `files`; `failWith`
 * makes the next write throw that message after its first step.
 */
export class FakeArchiveWriter implements ExportArchiveWriter {
  readonly written: Array<{ organizationId: number; path: string }> = [];
  failWith: string | null = null;
  /** Runs after the first progress report (a test's chance to act mid-generation). */
  midway: (() => void) | null = null;
  constructor(
    private readonly files: FakeExportFiles,
    private readonly rows = 30,
    private readonly step = 10,
  ) {}
  async write(organizationId: number, path: string, onProgress: ExportProgressListener) {
    this.files.existing.add(path);
    for (let done = this.step; done <= this.rows; done += this.step) {
      await onProgress(done, this.rows);
      if (this.failWith) {
        const message = this.failWith;
        this.failWith = null;
        throw new Error(message);
      }
      if (done === this.step) this.midway?.();
    }
    this.written.push({ organizationId, path });
    return { bytes: this.rows * 100 };
  }
}

/** Members by organization. */
export class FakeOrganizationMembers implements OrganizationMembers {
  readonly byOrganization = new Map<number, Array<{ userId: string; email: string }>>();
  add(organizationId: number, userId: string, email: string): this {
    this.byOrganization.set(organizationId, [...(this.byOrganization.get(organizationId) ?? []), { userId, email }]);
    return this;
  }
  async list(organizationId: number) {
    return [...(this.byOrganization.get(organizationId) ?? [])];
  }
}

/** Counts the pokes the job system got. */
export class RecordingExportTrigger implements ExportJobTrigger {
  pokes = 0;
  async generateSoon(): Promise<void> {
    this.pokes += 1;
  }
}
