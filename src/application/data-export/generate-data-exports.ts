import { afterLapsedLease, EXPORT_DOWNLOAD_WINDOW_MS, type DataExport } from '../../domain/data-export/data-export';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { SecretTokens } from '../identity/ports';
import type { DirectDeliveries, DirectMessage } from '../notifications/ports';
import type { DataExportRepository, DataExportSettings, ExportArchiveWriter, ExportFiles } from './ports';

/** What one round did. */
export interface ExportRound {
  /** Exports whose worker stopped mid-way: queued again or failed. */
  readonly released: readonly { id: string; status: string }[];
  readonly generated: readonly string[];
  readonly failed: readonly { id: string; error: string }[];
  readonly expired: number;
}

class LeaseLost extends Error {}

/**
 * The export worker's round: exports left generating by a stopped worker are queued again (or
 * failed after the last try), queued ones are generated one after the other under a lease that
 * progress renews, and the download link is e-mailed to the recipients in the transaction that
 * marks the export ready (through the delivery ledger: retried, recorded). Archives past their
 * seven days are deleted and their exports marked expired.
 */
export class GenerateDataExports {
  constructor(
    private readonly exports: DataExportRepository,
    private readonly writer: ExportArchiveWriter,
    private readonly files: ExportFiles,
    private readonly mail: DirectDeliveries,
    private readonly tokens: SecretTokens,
    private readonly tx: TransactionRunner,
    private readonly settings: DataExportSettings,
    private readonly clock: Clock,
  ) {}

  async execute(owner: string, onProgress?: (e: DataExport, rowsDone: number, rowsTotal: number) => void): Promise<ExportRound> {
    const released = await this.tx.run((tx) => this.exports.releaseLapsed(this.clock.now(), afterLapsedLease, tx));
    // A worker killed mid-way leaves its half-written archive; one generated again overwrites it.
    for (const e of released) if (e.status === 'failed') await this.files.remove(this.files.pathFor(e.id));
    const generated: string[] = [];
    const failed: Array<{ id: string; error: string }> = [];
    for (let next = await this.claim(owner); next; next = await this.claim(owner)) {
      const outcome = await this.generate(owner, next, onProgress);
      if (outcome === 'ready') generated.push(next.id);
      else if (outcome !== 'lost') failed.push({ id: next.id, error: outcome.error });
    }
    const expired = await this.tx.run((tx) => this.exports.expireDue(this.clock.now(), tx));
    for (const file of expired) if (file.path) await this.files.remove(file.path);
    return { released: released.map((e) => ({ id: e.id, status: e.status })), generated, failed, expired: expired.length };
  }

  /** When the next round has work (the job sleeps until then): see DataExportRepository.nextDueAt. */
  nextDueAt(): Promise<Date | null> {
    return this.exports.nextDueAt();
  }

  private claim(owner: string): Promise<DataExport | null> {
    return this.tx.run((tx) => this.exports.claimNext(owner, this.clock.now(), this.settings.leaseMs, tx));
  }

  private async generate(
    owner: string,
    e: DataExport,
    onProgress?: (e: DataExport, rowsDone: number, rowsTotal: number) => void,
  ): Promise<'ready' | 'lost' | { error: string }> {
    const path = this.files.pathFor(e.id);
    try {
      const { bytes } = await this.writer.write(e.organizationId, path, async (rowsDone, rowsTotal) => {
        const leaseUntil = new Date(this.clock.now().getTime() + this.settings.leaseMs);
        const held = await this.tx.run((tx) => this.exports.progress(e.id, owner, rowsDone, rowsTotal, leaseUntil, tx));
        if (!held) throw new LeaseLost();
        onProgress?.(e, rowsDone, rowsTotal);
      });
      const token = this.tokens.generate('wsx_');
      const now = this.clock.now();
      const expiresAt = new Date(now.getTime() + EXPORT_DOWNLOAD_WINDOW_MS);
      const finished = await this.tx.run(async (tx) => {
        if (!(await this.exports.finish(e.id, owner, { path, bytes, downloadTokenHash: this.tokens.hash(token) }, now, expiresAt, tx)))
          return false;
        await this.mail.enqueue(
          e.recipientEmails.map((address) => this.linkMail(e, address, token, expiresAt)),
          now,
          tx,
        );
        return true;
      });
      return finished ? 'ready' : 'lost';
    } catch (error) {
      if (error instanceof LeaseLost) return 'lost';
      const message = (error as Error).message;
      await this.files.remove(path);
      await this.tx.run((tx) => this.exports.fail(e.id, owner, message, this.clock.now(), tx));
      return { error: message };
    }
  }

  private linkMail(e: DataExport, address: string, token: string, expiresAt: Date): DirectMessage {
    const link = new URL('/api/organization/data-export/download', this.settings.publicBaseUrl);
    link.searchParams.set('exportId', e.id);
    link.searchParams.set('token', token);
    return {
      organizationId: e.organizationId,
      customerId: null,
      recipient: { type: 'email', address },
      event: 'dataExport.ready',
      subject: 'Your data export is ready',
      text:
        `The export you asked for on ${e.createdAt.toISOString().slice(0, 10)} is ready: ${link.href}\n\n` +
        `The link works until ${expiresAt.toISOString()}; after that the archive is deleted.`,
      dedupKey: `data-export:${e.id}:${address.toLowerCase()}`,
    };
  }
}
