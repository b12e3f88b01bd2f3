import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, the one the service's browser checks drive (BROWSER_EXECUTABLE_PATH elsewhere). */
const EXECUTABLE = process.env.BROWSER_EXECUTABLE_PATH || '/usr/bin/chromium';

/** A headless Chromium for the console tests: no sandbox (root in CI), no GPU, nothing fetched in the background. */
export async function launchConsoleBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!fs.existsSync(EXECUTABLE)) throw new Error(`Chromium not found at ${EXECUTABLE}: install the chromium package`);
  return chromium.launch({
    executablePath: EXECUTABLE,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-default-apps',
      '--disable-extensions',
      '--disable-sync',
      '--no-first-run',
      '--metrics-recording-only',
      '--mute-audio',
      ...extraArgs,
    ],
  });
}
