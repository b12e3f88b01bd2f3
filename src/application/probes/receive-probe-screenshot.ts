import { AppError } from '../../domain/shared/app-error';
import type { ScreenshotStore } from '../checks/ports';
import type { ProbeAssignments } from './ports';
import type { ProbeCaller } from './probe-identity';

/** Most bytes of one failure screenshot a probe may send. */
export const PROBE_SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Keeps the failure screenshot of a scenario a probe ran, for a monitor its location checks (the
 * owner comes from the server's records), so the result's evidence can name it.
 */
export class ReceiveProbeScreenshot {
  constructor(
    private readonly assignments: ProbeAssignments,
    private readonly screenshots: ScreenshotStore,
  ) {}

  async execute(caller: ProbeCaller, shot: { id: string; monitorId: number; takenAt: Date; png: Uint8Array }): Promise<void> {
    const monitor = (await this.assignments.monitorsAt(caller.locationCode, [shot.monitorId])).get(shot.monitorId);
    if (!monitor) throw new AppError('notFound');
    await this.screenshots.save({ ...shot, organizationId: monitor.organizationId });
  }
}
