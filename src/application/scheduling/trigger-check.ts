import { AppError } from '../../domain/shared/app-error';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { MonitorLookup } from '../results/ports';
import type { CheckSchedule } from './ports';

export interface TriggeredCheck {
  readonly websiteId: string;
  readonly locations: readonly string[];
  /** Locations made due now (none for a paused monitor); a location whose check is running is answered by that check. */
  readonly triggered: number;
}

/** POST /api/websites/{id}/trigger-check: check now from every location of the monitor. */
export class TriggerCheck {
  constructor(
    private readonly monitors: MonitorLookup,
    private readonly schedule: CheckSchedule,
    private readonly clock: Clock,
  ) {}

  /** `kind`, named by the per-kind paths: only a monitor of this kind is found (else monitorNotFound). */
  async execute(actor: Actor, ref: string, kind?: string): Promise<TriggeredCheck> {
    const monitor = await this.monitors.resolve(actor.scope, ref, kind);
    if (!monitor) throw new AppError(kind ? 'monitorNotFound' : 'websiteNotFound');
    requireAction(actor, 'monitor.check');
    if (monitor.locations.length === 0) throw new AppError('noLocationsConfigured');
    const triggered = await this.schedule.dueNow(monitor.monitorId, this.clock.now());
    return { websiteId: monitor.publicId, locations: monitor.locations, triggered };
  }
}
