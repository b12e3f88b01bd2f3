import type { DateRange } from '../../domain/results/date-range';
import { organizationScope } from '../../domain/shared/tenant-scope';
import type { ObjectiveMeter } from './objective-meter';
import type { ObjectiveRepository, ObjectiveSubjects } from './ports';

/** An objective as a report shows it: measured over the report's period, with the monitors it covers. */
export interface MeasuredObjective {
  readonly name: string;
  readonly target: number;
  readonly attainmentPercent: number | null;
  readonly met: boolean | null;
  readonly budgetLeftPercent: number | null;
  readonly budgetLeftMinutes: number;
  readonly spentMinutes: number;
  readonly unknownPercent: number | null;
  readonly monitorIds: readonly number[];
}

/**
 * The objectives a report shows: the organization's objectives covering any of the report's
 * monitors (a website objective its monitor, a customer objective any monitor of the customer),
 * each over all of its monitors and measured over the report's period exactly as
 * GET /api/service-levels/{id}/status?from&to measures it. It answers the reports context's
 * `ReportObjectives` (bound in the composition root), so service levels build on no report type.
 */
export class ReportServiceLevels {
  constructor(
    private readonly objectives: ObjectiveRepository,
    private readonly subjects: ObjectiveSubjects,
    private readonly meter: ObjectiveMeter,
  ) {}

  async over(
    organizationId: number,
    monitors: readonly { monitorId: number; customerId: number }[],
    period: DateRange,
    now: Date,
  ): Promise<MeasuredObjective[]> {
    const monitorIds = new Set(monitors.map((m) => m.monitorId));
    const customerIds = new Set(monitors.map((m) => m.customerId));
    const covering = (await this.objectives.list(organizationScope(organizationId))).filter((o) =>
      o.subject.type === 'monitor' ? monitorIds.has(o.subject.monitorId) : customerIds.has(o.subject.customerId),
    );
    const measured: MeasuredObjective[] = [];
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
