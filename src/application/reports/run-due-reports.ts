import { latestSlot, nextSlot, reportPeriod, type ReportSchedule } from '../../domain/reports/report-schedule';
import type { Clock } from '../shared/clock';
import type { ReportRepository, ReportRuns, ReportSources } from './ports';
import type { ReportRunner } from './report-runner';

export interface DueReportsOptions {
  /** How long after its slot a run is still made (a worker down longer skips that slot). */
  lookbackMs: number;
  /** When customers' own monthly reports go out: the 1st of the month at this UTC time (HH:MM). */
  customerReportTime: string;
}

/**
 * The reports job (at the next slot, see nextDueAt): the latest slot of every enabled definition, and of every customer
 * with monthlyReportsEnabled, is made once. Slots before a definition existed are not made; a slot
 * already taken is passed over with one cheap look; exactly once itself comes from the run's unique
 * key (see ReportRunner), not from the job system's lock.
 */
export class RunDueReports {
  constructor(
    private readonly reports: ReportRepository,
    private readonly sources: ReportSources,
    private readonly runs: ReportRuns,
    private readonly runner: ReportRunner,
    private readonly clock: Clock,
    private readonly options: DueReportsOptions,
  ) {}

  async execute(): Promise<{ made: number }> {
    const now = this.clock.now();
    const recent = (slot: Date) => now.getTime() - slot.getTime() <= this.options.lookbackMs;
    let made = 0;
    for (const report of await this.reports.enabled()) {
      const slot = latestSlot(report.schedule, now);
      if (slot.getTime() < report.createdAt.getTime() || !recent(slot)) continue;
      if (await this.runs.slotTaken({ reportId: report.id }, slot)) continue;
      if (await this.runner.run({ kind: 'report', report }, { kind: 'schedule', slot }, reportPeriod(report.schedule, slot))) made += 1;
    }
    const customerSchedule = this.customerSchedule();
    const slot = latestSlot(customerSchedule, now);
    if (recent(slot)) {
      for (const customer of await this.sources.monthlyCustomers()) {
        if (await this.runs.slotTaken({ customerId: customer.customerId }, slot)) continue;
        if (await this.runner.run({ kind: 'customer', customer }, { kind: 'schedule', slot }, reportPeriod(customerSchedule, slot)))
          made += 1;
      }
    }
    return { made };
  }

  /**
   * The first slot after `since` (the job's last run: a slot passed since then is due at once) of
   * any enabled definition, or of the customers' monthly reports (the 1st of the month, whether or
   * not a customer has them on: one wake-up a month): the job sleeps until then.
   */
  async nextDueAt(since: Date): Promise<Date> {
    let next = nextSlot(this.customerSchedule(), since).getTime();
    for (const report of await this.reports.enabled()) next = Math.min(next, nextSlot(report.schedule, since).getTime());
    return new Date(next);
  }

  private customerSchedule(): ReportSchedule {
    return { frequency: 'monthly', weekday: null, dayOfMonth: 1, timeOfDay: this.options.customerReportTime, timezone: 'UTC' };
  }
}
