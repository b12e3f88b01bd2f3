import type { Screenshot, ScreenshotStore } from '../../../application/checks/ports';
import type { ProbeApiClient } from './probe-api-client';

/**
 * A probe's failure screenshots go to the server, which keeps them with its results (the probe
 * keeps none): the result's evidence names the screenshot the server then serves.
 */
export class UploadedScreenshots implements ScreenshotStore {
  constructor(private readonly api: ProbeApiClient) {}

  async save(screenshot: Screenshot): Promise<void> {
    await this.api.call('/screenshots', {
      id: screenshot.id,
      monitorId: screenshot.monitorId,
      takenAt: screenshot.takenAt.getTime(),
      png: Buffer.from(screenshot.png).toString('base64'),
    });
  }

  async find(): Promise<Screenshot | null> {
    return null;
  }

  async purgeBefore(): Promise<number> {
    return 0;
  }
}
