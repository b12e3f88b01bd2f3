import fs from 'node:fs';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';

const SCREENS = path.resolve(__dirname, '../../console/src/screens');

/**
 * Every path pattern of the console's route table, read from its sources (each area's `pattern:`
 * lines, and the Organization page's in `screens/index.tsx`), so a screen added later is walked
 * too (or the probe says it has no address for it).
 */
export function consoleRoutePatterns(): string[] {
  const files = fs.readdirSync(SCREENS, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.tsx'));
  const patterns = files.flatMap((file) =>
    [...fs.readFileSync(path.join(SCREENS, file), 'utf8').matchAll(/\bpattern: '([^']+)'/g)].map((m) => m[1]!),
  );
  return [...new Set(patterns)].sort();
}

export interface ConsoleWatch {
  /** Resolves once no request (other than the live event stream) has been in flight for a while. */
  quiet(): Promise<void>;
  /** Stops listening; answers what went wrong meanwhile, one line each. */
  stop(): string[];
}

const QUIET_MS = 400;
const MOST_MS = 10_000;

/**
 * Listens to a page as a person with the browser's console open would see it: console errors and
 * warnings, uncaught errors, requests that failed and answers of 400 and above (with their path).
 */
export function watchConsole(page: Page): ConsoleWatch {
  const problems: string[] = [];
  let stopped = false;
  let inFlight = 0;
  let lastChange = Date.now();
  const note = (line: string) => void (stopped ? undefined : problems.push(line));
  const where = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };
  const counted = (request: Request) => request.resourceType() !== 'eventsource';
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      const at = message.location().url;
      note(`console ${message.type()}: ${message.text()}${at ? ` (at ${where(at)})` : ''}`);
    }
  });
  page.on('pageerror', (error) => note(`uncaught: ${error.message}`));
  page.on('request', (request) => {
    if (counted(request)) inFlight += 1;
    lastChange = Date.now();
  });
  const done = (request: Request) => {
    if (counted(request)) inFlight = Math.max(0, inFlight - 1);
    lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', (request) => {
    done(request);
    note(`request failed: ${request.method()} ${where(request.url())} ${request.failure()?.errorText ?? ''}`.trim());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) note(`answered ${response.status()}: ${response.request().method()} ${where(response.url())}`);
  });
  return {
    async quiet() {
      const started = Date.now();
      while (Date.now() - started < MOST_MS) {
        if (inFlight === 0 && Date.now() - lastChange >= QUIET_MS) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop() {
      stopped = true;
      return problems;
    },
  };
}
