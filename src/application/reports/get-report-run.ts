import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { ReportRun, ReportRuns } from './ports';

/** GET /api/organization/report-runs/{id}: reportRunNotFound when missing or another organization's. */
export class GetReportRun {
  constructor(private readonly runs: ReportRuns) {}

  async execute(actor: Actor, { id }: { id: string }): Promise<ReportRun> {
    const run = await this.runs.findByRef(actor.scope, id);
    if (!run) throw new AppError('reportRunNotFound');
    return run;
  }
}
