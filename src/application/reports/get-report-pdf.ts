import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { ReportArchive, ReportRun, ReportRuns } from './ports';

/**
 * GET /api/organization/report-runs/{id}/pdf: the archived PDF. reportRunNoPdf when the run made
 * none (skipped by its threshold, failed, or still running); reportPdfNotFound when a path is
 * recorded but the file cannot be read (removed from DATA_DIR by hand, a lost volume).
 */
export class GetReportPdf {
  constructor(
    private readonly runs: ReportRuns,
    private readonly archive: ReportArchive,
  ) {}

  async execute(actor: Actor, { id }: { id: string }): Promise<{ run: ReportRun; pdf: Uint8Array }> {
    const run = await this.runs.findByRef(actor.scope, id);
    if (!run) throw new AppError('reportRunNotFound');
    if (!run.pdfPath) throw new AppError('reportRunNoPdf', { status: run.status });
    const pdf = await this.archive.read(run.pdfPath);
    if (!pdf) throw new AppError('reportPdfNotFound');
    return { run, pdf };
  }
}
