import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { ReportRepository, ReportRun, ReportRunStatus, ReportRuns } from './ports';

export interface ListReportRunsInput {
  reportId?: string;
  status?: ReportRunStatus;
  page: number;
  perPage: number;
}

/** GET /api/organization/report-runs: newest first, optionally of one definition or status. */
export class ListReportRuns {
  constructor(
    private readonly runs: ReportRuns,
    private readonly reports: ReportRepository,
  ) {}

  async execute(actor: Actor, input: ListReportRunsInput): Promise<{ items: ReportRun[]; total: number; page: number; perPage: number }> {
    let reportId: number | undefined;
    if (input.reportId !== undefined) {
      const report = await this.reports.findByRef(actor.scope, input.reportId);
      if (!report) throw new AppError('reportNotFound');
      reportId = report.id;
    }
    const { items, total } = await this.runs.list(actor.scope, { reportId, status: input.status }, input);
    return { items, total, page: input.page, perPage: input.perPage };
  }
}
