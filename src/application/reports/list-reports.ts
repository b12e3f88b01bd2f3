import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { ReportRepository, ReportScopeRefs } from './ports';
import { viewOf, type ReportView } from './report-view';

/** GET /api/organization/reports: the organization's definitions, oldest first. */
export class ListReports {
  constructor(
    private readonly reports: ReportRepository,
    private readonly refs: ReportScopeRefs,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor): Promise<ReportView[]> {
    const now = this.clock.now();
    return Promise.all((await this.reports.list(actor.scope)).map((report) => viewOf(report, this.refs, now)));
  }
}
