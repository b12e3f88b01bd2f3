import fs from 'node:fs/promises';
import { processCpuMicros } from './process-cpu';

/** CPU (ms) used so far by every Chromium process on this machine (the bench's browser is the only one). */
async function chromiumCpuMs(): Promise<number> {
  let total = 0;
  for (const pid of (await fs.readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!(await fs.readFile(`/proc/${pid}/comm`, 'utf8')).startsWith('chrom')) continue;
      total += (await processCpuMicros(Number(pid))) / 1000;
    } catch {
      // A process that ended meanwhile.
    }
  }
  return total;
}

/**
 * Waits until the browser is quiet: less than `busyMs` of CPU in all its processes over a window
 * of `windowMs`, or `maxMs` at most. A tab opened by the bench makes this Chromium start a renderer
 * for its own tab search (a top-chrome WebUI, about 400 ms of CPU on 2 cores), which is the
 * browser's work, not the page's: a navigation measured from a new tab starts its clock once that
 * is done, as a person's navigation in a tab they have open would.
 */
export async function browserQuiet(windowMs = 200, busyMs = 20, maxMs = 5_000): Promise<void> {
  const until = Date.now() + maxMs;
  let before = await chromiumCpuMs();
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const now = await chromiumCpuMs();
    if (now - before < busyMs) return;
    before = now;
  }
}
