import { AppError } from '../../domain/shared/app-error';
import { latestSlot, reportPeriod } from '../../domain/reports/report-schedule';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { ReportRepository, ReportRun } from './ports';
import type { ReportRunner } from './report-runner';

/**
 * POST /api/organization/reports/{id}/run: a manual run of the period the latest slot covers, made
 * as a scheduled one would be (a threshold report below nobody's threshold makes no PDF), mailed to
 * the recipients too. It takes no slot, so the scheduled run of that slot still happens.
 */
export class RunReportNow {
  constructor(
    private readonly reports: ReportRepository,
    private readonly runner: ReportRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, { id }: { id: string }): Promise<ReportRun> {
    requireAction(actor, 'report.run');
    const report = await this.reports.findByRef(actor.scope, id);
    if (!report) throw new AppError('reportNotFound');
    const period = reportPeriod(report.schedule, latestSlot(report.schedule, this.clock.now()));
    return (await this.runner.run({ kind: 'report', report }, { kind: 'manual' }, period))!;
  }
}
