import type { ReportRun } from '../../../application/reports/ports';
import type { ReportView } from '../../../application/reports/report-view';

export const presentReport = ({ report, scope, nextRunAt }: ReportView) => ({
  id: report.publicId,
  name: report.name,
  frequency: report.schedule.frequency,
  weekday: report.schedule.weekday,
  dayOfMonth: report.schedule.dayOfMonth,
  timeOfDay: report.schedule.timeOfDay,
  timezone: report.schedule.timezone,
  scope: { customers: [...scope.customers], monitors: [...scope.monitors], tags: [...scope.tags] },
  recipients: report.recipients,
  mode: report.mode,
  threshold: report.threshold,
  slaTarget: report.slaTarget,
  enabled: report.enabled,
  nextRunAt: nextRunAt?.toISOString() ?? null,
  createdAt: report.createdAt.toISOString(),
  updatedAt: report.updatedAt.toISOString(),
});

export const presentRun = (run: ReportRun) => ({
  id: run.publicId,
  reportId: run.reportPublicId,
  customerId: run.customerId,
  trigger: run.trigger,
  slot: run.slot?.toISOString() ?? null,
  periodFrom: run.period.from.toISOString(),
  periodTo: run.period.to.toISOString(),
  status: run.status,
  hasPdf: run.pdfPath !== null,
  summary: run.summary && {
    monitors: run.summary.monitors,
    uptimeOfKnownPercent: run.summary.uptimeOfKnownPercent,
    unknownPercent: run.summary.unknownPercent,
    lowestUptime: run.summary.lowestUptime,
    incidents: run.summary.incidents,
    slaMissed: run.summary.slaMissed,
  },
  recipients: run.recipients,
  error: run.error,
  startedAt: run.startedAt.toISOString(),
  finishedAt: run.finishedAt?.toISOString() ?? null,
});
