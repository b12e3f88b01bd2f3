import type { TransactionRunner } from '../shared/transaction';
import { ReportDefinition } from '../../domain/reports/report-definition';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { ReportRepository, ReportScopeRefs } from './ports';
import { settingsFrom, type ReportInput } from './report-input';
import { viewOf, type ReportView } from './report-view';

/** POST /api/organization/reports: editors and admins of the organization define a report. */
export class CreateReport {
  constructor(
    private readonly reports: ReportRepository,
    private readonly refs: ReportScopeRefs,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: ReportInput): Promise<ReportView> {
    requireAction(actor, 'report.create');
    const now = this.clock.now();
    const settings = await settingsFrom(input, actor.scope.organizationId, this.refs);
    const report = await this.tx.run((tx) =>
      this.reports.add(new ReportDefinition(this.ids.uuid(), actor.scope.organizationId, settings, now, now), tx),
    );
    return viewOf(report, this.refs, now);
  }
}
