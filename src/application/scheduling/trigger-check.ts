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
  /**
   * When the checks were asked for: each location's answer is its first result checked at or after
   * it (a check running since then, or the one started for the trigger). A result checked before
   * it (a regular or confirmation check) is not the answer.
   */
  readonly requestedAt: Date;
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
    const requestedAt = this.clock.now();
    const triggered = await this.schedule.dueNow(monitor.monitorId, requestedAt);
    return { websiteId: monitor.publicId, locations: monitor.locations, triggered, requestedAt };
  }
}
