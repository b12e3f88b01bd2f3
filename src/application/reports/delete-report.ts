import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { ReportDefinition } from '../../domain/reports/report-definition';
import { requireAction, type Actor } from '../shared/actor';
import type { ReportRepository } from './ports';

/** DELETE /api/organization/reports/{id}: its runs and their PDFs stay, no longer linked to a definition. */
export class DeleteReport {
  constructor(
    private readonly reports: ReportRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, { id }: { id: string }): Promise<ReportDefinition> {
    requireAction(actor, 'report.delete');
    const report = await this.reports.findByRef(actor.scope, id);
    if (!report) throw new AppError('reportNotFound');
    await this.tx.run((tx) => this.reports.remove(report, tx));
    return report;
  }
}
