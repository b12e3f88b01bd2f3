import fs from 'node:fs';
import path from 'node:path';
import type { ConsoleMessage, Frame, Page, Request, Response } from 'playwright-core';

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
 * Only requests made after the watch began count; with `fromNextLoad`, only the next page load and
 * what its document does, so one tab can be watched screen after screen: what the screen before did
 * until the navigation replaced it (a poll its timer fired, aborted by the navigation; its live event
 * stream closed) is not this screen's. `stop` takes the listeners off the page.
 */
export function watchConsole(page: Page, { fromNextLoad = false } = {}): ConsoleWatch {
  const problems: string[] = [];
  let stopped = false;
  // With fromNextLoad: whether the next document has replaced the one before in the tab.
  let ours = !fromNextLoad;
  const mine = new Set<Request>();
  let inFlight = 0;
  let lastChange = Date.now();
  const note = (line: string) => void (stopped || !ours ? undefined : problems.push(line));
  const where = (url: string) => {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  };
  const counted = (request: Request) => request.resourceType() !== 'eventsource';
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') {
      const at = message.location().url;
      note(`console ${message.type()}: ${message.text()}${at ? ` (at ${where(at)})` : ''}`);
    }
  };
  const onPageError = (error: Error) => note(`uncaught: ${error.message}`);
  const onCommitted = (frame: Frame) => void (frame === page.mainFrame() ? (ours = true) : undefined);
  const onRequest = (request: Request) => {
    if (!ours && !(request.isNavigationRequest() && request.frame() === page.mainFrame())) return;
    mine.add(request);
    if (counted(request)) inFlight += 1;
    lastChange = Date.now();
  };
  const done = (request: Request) => {
    if (!mine.delete(request)) return false;
    if (counted(request)) inFlight = Math.max(0, inFlight - 1);
    lastChange = Date.now();
    return true;
  };
  const onFailed = (request: Request) => {
    if (done(request)) note(`request failed: ${request.method()} ${where(request.url())} ${request.failure()?.errorText ?? ''}`.trim());
  };
  const onResponse = (response: Response) => {
    if (response.status() >= 400 && mine.has(response.request()))
      note(`answered ${response.status()}: ${response.request().method()} ${where(response.url())}`);
  };
  // Page's own typed overloads, each listener remembered once to come off at stop().
  const offs: (() => void)[] = [];
  const listen = ((event: never, handler: never) => {
    page.on(event, handler);
    offs.push(() => page.off(event, handler));
    return page;
  }) as Page['on'];
  listen('framenavigated', onCommitted);
  listen('console', onConsole);
  listen('pageerror', onPageError);
  listen('request', onRequest);
  listen('requestfinished', done);
  listen('requestfailed', onFailed);
  listen('response', onResponse);
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
      for (const off of offs) off();
      return problems;
    },
  };
}
