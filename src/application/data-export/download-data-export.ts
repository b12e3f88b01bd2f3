import { AppError } from '../../domain/shared/app-error';
import { assertDownloadable, type DataExport } from '../../domain/data-export/data-export';
import { type Actor, isOrgAdmin, requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { SecretTokens } from '../identity/ports';
import { findExport } from './list-data-exports';
import type { DataExportRepository, ExportFiles } from './ports';

/** An archive to stream to the caller. */
export interface ExportDownload {
  readonly path: string;
  readonly filename: string;
  readonly bytes: number;
}

/**
 * The archive of a ready export, for a signed-in caller only: an administrator of its organization,
 * or a recipient who follows the e-mailed link (its secret token, compared by digest) signed in as
 * the member it was sent to. A link alone opens nothing: a forwarded or leaked mail is not the data.
 * exportNotReady (data.status) before it is ready or after it failed, exportExpired once the seven
 * days passed (the file is gone then).
 */
export class DownloadDataExport {
  constructor(
    private readonly exports: DataExportRepository,
    private readonly files: ExportFiles,
    private readonly tokens: SecretTokens,
    private readonly clock: Clock,
  ) {}

  async byCaller(actor: Actor, id: string | undefined): Promise<ExportDownload> {
    requireAction(actor, 'dataExport.request');
    return this.open(await findExport(this.exports, actor.scope.organizationId, id));
  }

  /**
   * Through the e-mailed link, signed in: an administrator as by `byCaller`; another member only
   * with the link's token and as one of the export's recipients. Anything else is as good as no export.
   */
  async byLink(actor: Actor, email: string, id: string | undefined, token: string | undefined): Promise<ExportDownload> {
    if (id === undefined || id.trim() === '') throw new AppError('missingExportId');
    if (isOrgAdmin(actor)) return this.byCaller(actor, id);
    const file = /^[0-9a-f-]{36}$/i.test(id) ? await this.exports.fileOf(id) : null;
    if (
      !file ||
      file.organizationId !== actor.scope.organizationId ||
      actor.scope.customerId !== null ||
      token === undefined ||
      this.tokens.hash(token) !== file.downloadTokenHash
    ) {
      throw new AppError('notFound', { resource: 'dataExport' });
    }
    const found = await findExport(this.exports, file.organizationId, id);
    if (!found.recipientEmails.some((r) => r.toLowerCase() === email.toLowerCase()))
      throw new AppError('notFound', { resource: 'dataExport' });
    return this.open(found);
  }

  private async open(e: DataExport): Promise<ExportDownload> {
    assertDownloadable(e, this.clock.now());
    const file = await this.exports.fileOf(e.id);
    if (!file || !(await this.files.readable(file.path))) throw new AppError('exportExpired');
    return {
      path: file.path,
      filename: `export-${e.createdAt.toISOString().slice(0, 10)}-${e.id.slice(0, 8)}.zip`,
      bytes: e.fileBytes ?? 0,
    };
  }
}
