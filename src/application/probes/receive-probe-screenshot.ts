import { AppError } from '../../domain/shared/app-error';
import type { ScreenshotStore } from '../checks/ports';
import type { Clock } from '../shared/clock';
import type { ProbeAssignments, ProbeRegistry } from './ports';
import { assertRegistered, type ProbeCaller } from './probe-identity';

/** Most bytes of one failure screenshot a probe may send. */
export const PROBE_SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Keeps the failure screenshot of a scenario that a probe process registered at its key's location
 * ran, for a monitor that location checks (the owner comes from the server's records), so the
 * result's evidence can name it.
 */
export class ReceiveProbeScreenshot {
  constructor(
    private readonly registry: ProbeRegistry,
    private readonly assignments: ProbeAssignments,
    private readonly screenshots: ScreenshotStore,
    private readonly clock: Clock,
  ) {}

  async execute(caller: ProbeCaller, shot: { id: string; monitorId: number; takenAt: Date; png: Uint8Array }): Promise<void> {
    await assertRegistered(this.registry, caller, this.clock.now());
    const monitor = (await this.assignments.monitorsAt(caller.locationCode, [shot.monitorId])).get(shot.monitorId);
    if (!monitor) throw new AppError('notFound');
    await this.screenshots.save({ ...shot, organizationId: monitor.organizationId });
  }
}
