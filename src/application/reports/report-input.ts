import { AppError } from '../../domain/shared/app-error';
import { checkMode, type ReportMode, type ReportSettings } from '../../domain/reports/report-definition';
import { reportSchedule, type ReportFrequency } from '../../domain/reports/report-schedule';
import type { ReportScopeRefs, ScopeRefs } from './ports';

/** A report as a caller writes it. weekday and dayOfMonth are any JSON: the schedule rule judges them. */
export interface ReportInput {
  name: string;
  frequency: ReportFrequency;
  weekday?: unknown;
  dayOfMonth?: unknown;
  timeOfDay: string;
  timezone: string;
  scope: ScopeRefs;
  recipients: string[];
  mode: ReportMode;
  threshold: number | null;
  slaTarget: number;
  enabled: boolean;
}

/**
 * Settings from a whole input, checked in the order a reader fixes them: the schedule
 * (invalidReportSchedule), the mode's threshold, then the scope's ids (invalidReportScope, with the
 * refs the organization does not own in data.unknown).
 */
export async function settingsFrom(input: ReportInput, organizationId: number, refs: ReportScopeRefs): Promise<ReportSettings> {
  const schedule = reportSchedule(input);
  checkMode(input);
  const { scope, unknown } = await refs.resolve(organizationId, input.scope);
  if (unknown.customers.length + unknown.monitors.length + unknown.tags.length > 0) {
    throw new AppError('invalidReportScope', { unknown }, "the scope names records that are not the organization's");
  }
  return {
    name: input.name,
    schedule,
    scope,
    recipients: [...new Set(input.recipients.map((r) => r.toLowerCase()))],
    mode: input.mode,
    threshold: input.threshold,
    slaTarget: input.slaTarget,
    enabled: input.enabled,
  };
}
