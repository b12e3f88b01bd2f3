import type { ReportDefinition } from '../../domain/reports/report-definition';
import { nextSlot } from '../../domain/reports/report-schedule';
import type { ReportScopeRefs, ScopeRefs } from './ports';

/** A definition as answered: its scope by public ids, and when it runs next (null while disabled). */
export interface ReportView {
  readonly report: ReportDefinition;
  readonly scope: ScopeRefs;
  readonly nextRunAt: Date | null;
}

export async function viewOf(report: ReportDefinition, refs: ReportScopeRefs, now: Date): Promise<ReportView> {
  return {
    report,
    scope: await refs.present(report.organizationId, report.scope),
    nextRunAt: report.enabled ? nextSlot(report.schedule, now) : null,
  };
}
