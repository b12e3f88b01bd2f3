import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { MonitorLookup } from '../results/ports';
import type { Screenshot, ScreenshotStore } from './ports';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface GetScreenshotInput {
  /** The website's publicId or legacy integer id. */
  readonly websiteId: string;
  readonly screenshotId: string;
}

/**
 * A failure screenshot of a website the caller can see. The id's shape is judged first
 * (invalidScreenshotId); a website out of scope is websiteNotFound, and a screenshot that is not
 * that website's (another one's, expired or unknown) is screenshotNotFound.
 */
export class GetScreenshot {
  constructor(
    private readonly monitors: MonitorLookup,
    private readonly screenshots: ScreenshotStore,
  ) {}

  async execute(actor: Actor, input: GetScreenshotInput): Promise<Screenshot> {
    if (!UUID.test(input.screenshotId)) throw new AppError('invalidScreenshotId');
    const monitor = await this.monitors.resolve(actor.scope, input.websiteId);
    if (!monitor) throw new AppError('websiteNotFound');
    const screenshot = await this.screenshots.find(monitor.monitorId, input.screenshotId.toLowerCase());
    if (!screenshot) throw new AppError('screenshotNotFound');
    return screenshot;
  }
}
