import { excludedSpans } from '../../domain/maintenance/maintenance-status';
import { occurrencesBetween } from '../../domain/maintenance/occurrences';
import type { DateRange } from '../../domain/results/date-range';
import type { UptimeExclusions } from '../results/ports';
import type { MaintenanceWindowRepository, RecurrenceExpander } from './ports';

/** The results context's UptimeExclusions port: the occurrences of covering windows marked excludeFromUptime. */
export class MaintenanceUptimeExclusions implements UptimeExclusions {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly expander: RecurrenceExpander,
  ) {}

  async spans(monitorId: number, range: DateRange): Promise<DateRange[]> {
    const covering = await this.windows.coveringMonitor(monitorId);
    if (!covering) return [];
    return excludedSpans(covering.windows, covering.monitor, range.from, range.to, (window) =>
      occurrencesBetween(window, range.from, range.to, this.expander),
    ).map((span) => ({ from: span.start, to: span.end }));
  }
}
