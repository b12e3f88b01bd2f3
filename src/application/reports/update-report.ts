import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { ReportDefinition } from '../../domain/reports/report-definition';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { ReportRepository, ReportScopeRefs, ScopeRefs } from './ports';
import { settingsFrom, type ReportInput } from './report-input';
import { viewOf, type ReportView } from './report-view';

/** Any fields of a report; each scope list sent replaces that list. */
export type ReportChange = Partial<Omit<ReportInput, 'scope'>> & { scope?: Partial<ScopeRefs> };

/** The definition as an input, so a partial change is judged as the whole it makes. */
async function inputOf(report: ReportDefinition, refs: ReportScopeRefs): Promise<ReportInput> {
  return {
    name: report.name,
    frequency: report.schedule.frequency,
    weekday: report.schedule.weekday,
    dayOfMonth: report.schedule.dayOfMonth,
    timeOfDay: report.schedule.timeOfDay,
    timezone: report.schedule.timezone,
    scope: await refs.present(report.organizationId, report.scope),
    recipients: report.recipients,
    mode: report.mode,
    threshold: report.threshold,
    slaTarget: report.slaTarget,
    enabled: report.enabled,
  };
}

/**
 * PATCH /api/organization/reports/{id}: any field; the result must hold together. Switching the
 * frequency drops the other frequency's field unless the change sends it.
 */
export class UpdateReport {
  constructor(
    private readonly reports: ReportRepository,
    private readonly refs: ReportScopeRefs,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, { id, change }: { id: string; change: ReportChange }): Promise<ReportView> {
    requireAction(actor, 'report.update');
    const report = await this.reports.findByRef(actor.scope, id);
    if (!report) throw new AppError('reportNotFound');
    const current = await inputOf(report, this.refs);
    const switching = change.frequency !== undefined && change.frequency !== current.frequency;
    const merged: ReportInput = {
      ...current,
      ...(switching ? { weekday: undefined, dayOfMonth: undefined } : {}),
      ...(Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) as Partial<ReportInput>),
      ...('weekday' in change ? { weekday: change.weekday } : {}),
      ...('dayOfMonth' in change ? { dayOfMonth: change.dayOfMonth } : {}),
      scope: { ...current.scope, ...Object.fromEntries(Object.entries(change.scope ?? {}).filter(([, v]) => v !== undefined)) },
    };
    const now = this.clock.now();
    report.change(await settingsFrom(merged, report.organizationId, this.refs), now);
    await this.tx.run((tx) => this.reports.save(report, tx));
    return viewOf(report, this.refs, now);
  }
}
