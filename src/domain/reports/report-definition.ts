import { AppError } from '../shared/app-error';
import type { ReportSchedule } from './report-schedule';

/** `always`: every slot sends its PDF. `threshold`: only when a monitor's uptime fell below `threshold`. */
export const REPORT_MODES = ['always', 'threshold'] as const;
export type ReportMode = (typeof REPORT_MODES)[number];

/** What a report covers, by internal ids. All three empty = every monitor of the organization. */
export interface ReportScope {
  readonly customerIds: readonly number[];
  readonly monitorIds: readonly number[];
  readonly tagIds: readonly number[];
}

export const isWholeOrganization = (scope: ReportScope): boolean =>
  scope.customerIds.length === 0 && scope.monitorIds.length === 0 && scope.tagIds.length === 0;

/** Everything a caller defines about a report. */
export interface ReportSettings {
  name: string;
  schedule: ReportSchedule;
  scope: ReportScope;
  recipients: string[];
  mode: ReportMode;
  /** Uptime percent under which a threshold report is sent. */
  threshold: number | null;
  /** The SLA each monitor's uptime is judged against, in percent. */
  slaTarget: number;
  enabled: boolean;
}

/** The threshold mode needs its threshold: invalidReportScope otherwise (the spec's grouping). */
export function checkMode(settings: Pick<ReportSettings, 'mode' | 'threshold'>): void {
  if (settings.mode === 'threshold' && settings.threshold === null) {
    throw new AppError('invalidReportScope', { field: 'threshold' }, 'threshold mode needs a threshold');
  }
}

/** A report definition of an organization: a schedule, a scope, recipients and how it decides to send. */
export class ReportDefinition implements ReportSettings {
  id = 0;
  name: string;
  schedule: ReportSchedule;
  scope: ReportScope;
  recipients: string[];
  mode: ReportMode;
  threshold: number | null;
  slaTarget: number;
  enabled: boolean;
  version = 1;

  constructor(
    readonly publicId: string,
    readonly organizationId: number,
    settings: ReportSettings,
    readonly createdAt: Date,
    public updatedAt: Date,
  ) {
    checkMode(settings);
    this.name = settings.name;
    this.schedule = settings.schedule;
    this.scope = settings.scope;
    this.recipients = settings.recipients;
    this.mode = settings.mode;
    this.threshold = settings.threshold;
    this.slaTarget = settings.slaTarget;
    this.enabled = settings.enabled;
  }

  /** Applies a change; the resulting settings must hold together as a create's would. */
  change(settings: ReportSettings, now: Date): void {
    checkMode(settings);
    Object.assign(this, {
      name: settings.name,
      schedule: settings.schedule,
      scope: settings.scope,
      recipients: settings.recipients,
      mode: settings.mode,
      threshold: settings.threshold,
      slaTarget: settings.slaTarget,
      enabled: settings.enabled,
    });
    this.updatedAt = now;
  }

  /** What a slot's run decides: a threshold report is sent only when some monitor fell below. */
  shouldSend(lowestUptime: number | null): boolean {
    if (this.mode === 'always') return true;
    return lowestUptime !== null && lowestUptime < this.threshold!;
  }
}
