import type { ReportObjectiveInput } from '../../domain/reports/report-model';
import type { DateRange } from '../../domain/results/date-range';
import { organizationScope } from '../../domain/shared/tenant-scope';
import type { ReportedMonitor, ReportObjectives } from '../reports/ports';
import type { ObjectiveMeter } from './objective-meter';
import type { ObjectiveRepository, ObjectiveSubjects } from './ports';

/**
 * The objectives a report shows: the organization's objectives covering any of the report's
 * monitors (a website objective its monitor, a customer objective any monitor of the customer),
 * each over all of its monitors and measured over the report's period exactly as
 * GET /api/service-levels/{id}/status?from&to measures it.
 */
export class ReportServiceLevels implements ReportObjectives {
  constructor(
    private readonly objectives: ObjectiveRepository,
    private readonly subjects: ObjectiveSubjects,
    private readonly meter: ObjectiveMeter,
  ) {}

  async over(organizationId: number, monitors: readonly ReportedMonitor[], period: DateRange, now: Date): Promise<ReportObjectiveInput[]> {
    const monitorIds = new Set(monitors.map((m) => m.monitorId));
    const customerIds = new Set(monitors.map((m) => m.customerId));
    const covering = (await this.objectives.list(organizationScope(organizationId))).filter((o) =>
      o.subject.type === 'monitor' ? monitorIds.has(o.subject.monitorId) : customerIds.has(o.subject.customerId),
    );
    const measured: ReportObjectiveInput[] = [];
    for (const objective of covering) {
      const covered = await this.subjects.monitorsOf(organizationId, objective.subject);
      const { level } = await this.meter.statusOf(objective, covered, now, { withWindow: true, range: period });
      measured.push({
        name: objective.name,
        target: objective.target,
        attainmentPercent: level.attainmentPercent,
        met: level.met,
        budgetLeftPercent: level.budget.leftPercent,
        budgetLeftMinutes: level.budget.leftMinutes,
        spentMinutes: level.budget.spentMinutes,
        unknownPercent: level.unknownPercent,
        monitorIds: covered.map((m) => m.monitorId),
      });
    }
    return measured;
  }
}
