/**
 * `npm run bench:console`: the console in real headless Chromium against the service (its own
 * process, embedded PostgreSQL, a check worker on a loopback location) holding 10,000 monitors in
 * 100 customers (BENCH_MONITORS). Prints, with goals:
 * - overviewReadyMs: navigation to the whole list usable, median of 5 (<= 1,000), each from a tab the
 *   browser is done opening (support/browser-quiet.ts);
 * - monitorChartMs: a monitor's 90-day chart drawn after the period is chosen (<= 500);
 * - liveUpdateMs: an incident opened in the service (a real check failing twice on the loopback
 *   target) to its monitor shown down on an open overview, p99 of 20 (<= 2,000);
 * - axeSeriousViolations: axe-core's serious and critical findings on the overview at 10,000 (0);
 * - heapGrowthMbPer10Min: the open overview's JavaScript heap (after a forced collection) while live
 *   updates arrive for BENCH_HEAP_SECONDS (default 180), extrapolated to 10 minutes (<= 5).
 * At 375 x 800 (a phone), with 10,020 monitors of which 50 down (made down by real checks failing):
 * - downVisibleAboveFold: the first line of the overview is down and wholly on the first screen (true);
 * - firstViewWireKilobytes: the first view's page, scripts, styles and icons as Chromium received them
 *   (CDP encodedDataLength: the host's compression, not one of the bench's own) (<= 60);
 * - overviewWireKilobytes: every page of the overview's monitor list as received (<= 1/4 of its raw JSON).
 * The bench ends at once, non-zero, when the service's process or the browser dies.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchConsoleBrowser } from '../test/support/chromium';
import { call } from './scenarios/scenario';
import { PASSWORD, seedConsoleWorld, type ConsoleWorld } from './scenarios/console.scenario';
import { measurePhone } from './scenarios/console-phone';
import { measureConsolePush } from './scenarios/console-push';
import { startBenchService, type BenchService } from './support/service';
import { browserQuiet } from './support/browser-quiet';
import { goal, loadAverage, printVerdict } from './support/verdict';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 10_000);
const LIVE = 20;
/** Monitors made down by real checks (part of the 10,000 seeded: 9,950 in SQL, 50 through the API). */
const DOWN = Number(process.env.BENCH_DOWN ?? 50);
const HEAP_SECONDS = Number(process.env.BENCH_HEAP_SECONDS ?? 180);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1]!;
const progress = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);

async function signIn(page: Page, service: BenchService, world: ConsoleWorld): Promise<void> {
  await page.goto(`${service.url}/app/sign-in`);
  await page.getByLabel('Email').fill(world.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

async function signedIn(browser: Browser, service: BenchService, world: ConsoleWorld, bypassCSP = false): Promise<BrowserContext> {
  // axe-core is injected as an inline script: its context bypasses the console's Content-Security-Policy.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP });
  const page = await context.newPage();
  await signIn(page, service, world);
  await page.close();
  return context;
}

/** Ends the bench at once, non-zero, when the service's process or the browser dies (nothing would answer its waits). */
function stopOnDeath(service: BenchService, browser: Browser): { closing(): void } {
  let closing = false;
  const die = (what: string) => {
    if (closing) return;
    process.stderr.write(`bench:console: ${what}; stopping\n`);
    process.exit(1);
  };
  void service.died.then((error) => die(error.message));
  browser.on('disconnected', () => die('the browser died'));
  return { closing: () => (closing = true) };
}

/** The `down` monitors made down by their checks (ten at a time): their incidents open as in production. */
async function makeDown(service: BenchService, world: ConsoleWorld, failing: Set<string>): Promise<void> {
  for (const monitor of world.down) failing.add(monitor.path);
  for (let i = 0; i < world.down.length; i += 10) {
    await Promise.all(world.down.slice(i, i + 10).map((monitor) => failTwice(service, world, monitor.publicId)));
  }
}

/**
 * Navigation to the overview with every monitor loaded and listed; answers the milliseconds it took.
 * The clock starts once the browser is done opening the tab (`browserQuiet`).
 */
async function openOverview(page: Page, url: string, total: number): Promise<number> {
  await browserQuiet();
  const started = Date.now();
  await page.goto(`${url}/app/`);
  await page.getByText(`of ${total} monitors shown`).waitFor({ timeout: 60_000 });
  return Date.now() - started;
}

async function monitorChartMs(context: BrowserContext, url: string, world: ConsoleWorld): Promise<number> {
  const page = await context.newPage();
  await page.goto(`${url}/app/monitors/website/${world.chartMonitorId}`);
  await page
    .getByRole('img', { name: /over the last day/ })
    .locator('canvas')
    .waitFor();
  const started = Date.now();
  await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: '90 days', exact: true }).click();
  await page
    .getByRole('img', { name: /over the last 90 days/ })
    .locator('canvas')
    .waitFor();
  const elapsed = Date.now() - started;
  await page.close();
  return elapsed;
}

async function axeSeriousViolations(page: Page): Promise<number> {
  await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(`axe.run(document).then(({ violations }) =>
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').reduce((n, v) => n + v.nodes.length, 0))`);
  return Number(found);
}

/** Two checks of a live monitor while its target fails: the customer's default opens its incident. */
async function failTwice(service: BenchService, world: ConsoleWorld, publicId: string): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const before = (
      await call<{ items: Array<{ checkedAt: string }> }>(
        service,
        'GET',
        `/api/websites/${publicId}/check-history?perPage=1`,
        undefined,
        world.token,
      )
    ).items[0];
    await call(service, 'POST', `/api/websites/${publicId}/trigger-check`, {}, world.token);
    for (let tries = 0; tries < 200; tries++) {
      const page = await call<{ items: Array<{ checkedAt: string }> }>(
        service,
        'GET',
        `/api/websites/${publicId}/check-history?perPage=1`,
        undefined,
        world.token,
      );
      if (page.items[0] && page.items[0].checkedAt !== before?.checkedAt) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** From each live monitor's incident opening to the open overview showing it down (the page's own clock). */
async function liveUpdateMs(page: Page, service: BenchService, world: ConsoleWorld, failing: Set<string>): Promise<number[]> {
  const samples: number[] = [];
  for (const monitor of world.live) {
    // The list draws only the lines in view: the search keeps this monitor's line among them.
    await page.getByLabel('Search').fill(monitor.name);
    await page.getByRole('link', { name: monitor.name, exact: true }).waitFor();
    failing.add(monitor.path);
    await failTwice(service, world, monitor.publicId);
    // Evaluated in the page at every frame (as text: this file has no DOM types): the time the row shows down.
    const shownAt = await page.waitForFunction(
      `(() => {
        const row = [...document.querySelectorAll('[role="listitem"]')]
          .find((r) => r.querySelector('.monitor-name')?.textContent === ${JSON.stringify(monitor.name)});
        return row?.querySelector('.badge-down') ? Date.now() : false;
      })()`,
      undefined,
      { polling: 'raf', timeout: 30_000 },
    );
    const incidents = await call<{ items: Array<{ createdAt: string }> }>(
      service,
      'GET',
      `/api/incidents?monitorId=${monitor.id}`,
      undefined,
      world.token,
    );
    samples.push(Number(await shownAt.jsonValue()) - Date.parse(incidents.items[0]!.createdAt));
    progress(`live update ${samples.length}/${LIVE}: ${samples[samples.length - 1]} ms`);
  }
  return samples;
}

/** The open overview's heap growth while the live monitors flip, per 10 minutes. */
async function heapGrowthMbPer10Min(page: Page, context: BrowserContext, service: BenchService, world: ConsoleWorld, failing: Set<string>) {
  const cdp = await context.newCDPSession(page);
  // Measured when the page is quiet: no list read in flight (the overview reads again 5 s after the last event).
  const heap = async () => {
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };
  const start = await heap();
  const started = Date.now();
  let round = 0;
  while (Date.now() - started < HEAP_SECONDS * 1000) {
    const monitor = world.live[round++ % world.live.length]!;
    if (failing.has(monitor.path)) failing.delete(monitor.path);
    else failing.add(monitor.path);
    await call(service, 'POST', `/api/websites/${monitor.publicId}/trigger-check`, {}, world.token);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const seconds = (Date.now() - started) / 1000;
  const growth = (await heap()) - start;
  return Math.round((growth / 1024 / 1024 / seconds) * 600 * 100) / 100;
}

async function main() {
  const loadBefore = loadAverage();
  const failing = new Set<string>();
  const target = http.createServer((req, res) => {
    res.statusCode = failing.has(req.url ?? '') ? 503 : 200;
    res.end(res.statusCode === 200 ? 'ok' : 'down');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const service = await startBenchService('console-service-process');
  const browser = await launchConsoleBrowser();
  const watch = stopOnDeath(service, browser);
  try {
    progress(`seeding ${MONITORS} monitors`);
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const world = await seedConsoleWorld(service, MONITORS - DOWN, LIVE, targetUrl, DOWN);
    const total = MONITORS + LIVE;
    progress(`making ${DOWN} monitors down`);
    await makeDown(service, world, failing);
    progress('phone (375 x 800)');
    const phone = await measurePhone(browser, service, (page) => signIn(page, service, world), total);
    progress(`phone: ${JSON.stringify(phone)}`);
    progress('push (a loopback push service, the service worker of the console)');
    const session = await call<{ user: { id: string } }>(service, 'GET', '/api/auth/get-session', undefined, world.token);
    const push = await measureConsolePush({
      browser,
      url: service.url,
      token: world.token,
      userId: session.user.id,
      monitorId: world.live[0]!.publicId,
    });
    progress(`push: ${JSON.stringify(push.figures)}`);
    const context = await signedIn(browser, service, world);
    const ready: number[] = [];
    for (let i = 0; i < 5; i++) {
      const page = await context.newPage();
      ready.push(await openOverview(page, service.url, total));
      await page.close();
    }
    progress(`overview ready: ${ready.join(', ')} ms`);
    const chartMs = await monitorChartMs(context, service.url, world);
    // axe-core and the live-update probe are scripts injected into the page: this context lets them
    // past the console's Content-Security-Policy (what the console itself does is the same).
    const probed = await signedIn(browser, service, world, true);
    const overview = await probed.newPage();
    await openOverview(overview, service.url, total);
    const violations = await axeSeriousViolations(overview);
    const live = await liveUpdateMs(overview, service, world, failing);
    progress(`heap over ${HEAP_SECONDS} s`);
    const heapGrowth = await heapGrowthMbPer10Min(overview, probed, service, world, failing);
    const figures = {
      monitors: total,
      overviewReadyMs: median(ready),
      overviewReadySamplesMs: ready,
      monitorChartMs: chartMs,
      liveUpdateMs: p99(live),
      liveUpdateSamplesMs: live,
      axeSeriousViolations: violations,
      heapGrowthMbPer10Min: heapGrowth,
      ...phone,
      ...push.figures,
    };
    printVerdict(
      figures,
      {
        overviewReadyMs: goal(figures.overviewReadyMs, '<=', 1000, 'ms'),
        monitorChartMs: goal(chartMs, '<=', 500, 'ms'),
        liveUpdateMs: goal(figures.liveUpdateMs, '<=', 2000, 'ms'),
        axeSeriousViolations: goal(violations, '==', 0, 'violations'),
        heapGrowthMbPer10Min: goal(heapGrowth, '<=', 5, 'MB per 10 min'),
        downVisibleAboveFold: goal(phone.downVisibleAboveFold ? 1 : 0, '==', 1, 'true (1) or false (0)'),
        firstViewWireKilobytes: goal(phone.firstViewWireKilobytes, '<=', 60, 'KiB received'),
        overviewWireKilobytes: goal(
          phone.overviewWireKilobytes,
          '<=',
          Math.round((phone.overviewRawKilobytes / 4) * 10) / 10,
          'KiB received',
        ),
        ...push.goals,
      },
      loadBefore,
    );
  } finally {
    watch.closing();
    await browser.close();
    await service.stop();
    target.closeAllConnections();
    target.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
