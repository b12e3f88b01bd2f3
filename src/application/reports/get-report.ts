import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { ReportRepository, ReportScopeRefs } from './ports';
import { viewOf, type ReportView } from './report-view';

/** GET /api/organization/reports/{id}; another organization's report answers reportNotFound, as a missing one. */
export class GetReport {
  constructor(
    private readonly reports: ReportRepository,
    private readonly refs: ReportScopeRefs,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, { id }: { id: string }): Promise<ReportView> {
    const report = await this.reports.findByRef(actor.scope, id);
    if (!report) throw new AppError('reportNotFound');
    return viewOf(report, this.refs, this.clock.now());
  }
}
