import { overviewStateOf, type OverviewState } from '../../domain/overview/monitor-overview';
import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { MaintenanceNow, OverviewFilter, OverviewMonitor, OverviewReader } from './ports';

export interface OverviewItem extends OverviewMonitor {
  readonly inMaintenance: boolean;
  readonly state: OverviewState;
}

/**
 * GET /api/monitor-overview: a page of every monitor of the caller's scope, whatever its kind, each
 * with the state an overview shows (paused, in maintenance, down, unknown, degraded, up) and its
 * newest result. Reads only: the maintenance context says which are in a window now.
 */
export class ListMonitorOverview {
  constructor(
    private readonly reader: OverviewReader,
    private readonly maintenance: MaintenanceNow,
    private readonly clock: Clock,
  ) {}

  async execute(
    actor: Actor,
    { filter, page }: { filter: OverviewFilter; page: { page: number; perPage: number } },
  ): Promise<{ items: OverviewItem[]; total: number }> {
    const now = this.clock.now();
    const found = await this.reader.page(actor.scope, filter, page, now);
    if (found === null) throw new AppError('customerNotFound');
    const inMaintenance = await this.maintenance.inMaintenance(
      actor.scope.organizationId,
      found.items.filter((m) => !m.paused).map((m) => ({ monitorId: m.id, publicId: m.publicId, customerId: m.customerId })),
      now,
    );
    return {
      total: found.total,
      items: found.items.map((monitor) => {
        const maintained = inMaintenance.has(monitor.publicId);
        const state = overviewStateOf({
          paused: monitor.paused,
          inMaintenance: maintained,
          current: monitor.current,
          lastStatus: monitor.lastStatus,
        });
        return { ...monitor, inMaintenance: maintained, state };
      }),
    };
  }
}
