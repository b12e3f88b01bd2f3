import { liveEventsInsert } from '../../../src/infrastructure/live-events/live-event-append';
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { uniqueEmail } from '../../support/builders';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';
import { watchConsole } from '../../support/console-errors';
import { apiAt } from '../../support/http-client';
import { checkTwice } from '../../support/console-checks';
import { PASSWORD } from '../../support/identity-fixtures';
import { readmeScreenshotsDir } from '../../support/readme-screenshots';

/** Live events the heap test sends the wall (monitor.stateChanged, appended as the database's triggers append them). */
const EVENTS = Number(process.env.WALL_EVENTS ?? 6_000);
/** The wall's heap may grow by at most this much (after a forced collection) while they arrive. */
const HEAP_BOUND = 1.5 * 1024 * 1024;

/**
 * The wall display (/app/wall): read-only and full screen, signed in with a read-only API token
 * taken once from the address's fragment (never sent to the server), down first, live from the
 * event stream; its heap does not grow while thousands of live events arrive. The README's pictures
 * of it go to .test-data/screenshots, or docs/screenshots with UPDATE_SCREENSHOTS=1 (`npm run screenshots`).
 */
describe('console: the wall display', function () {
  this.timeout(600_000);
  let shots = '';
  let app: RunningApplication;
  let browser: Browser;
  let admin: string;
  let readonlyToken: string;
  let editorToken: string;
  const monitors: Array<{ id: number; publicId: string; customerId: number; name: string }> = [];
  const failing = new Set<string>(['/down/1']);
  const target = http.createServer((req, res) => {
    res.statusCode = failing.has(req.url ?? '') ? 503 : 200;
    res.end(res.statusCode === 200 ? 'ok' : 'down');
  });

  const call = async (token: string, method: string, route: string, body?: unknown) => {
    const response = await apiAt(app.url, method, route, { token, ...(body === undefined ? {} : { body }) });
    if (response.status >= 300) throw new Error(`setup ${method} ${route}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  /** A token minted by a new user of `role` (a token acts with its minter's role). */
  const tokenOf = async (role: 'readonly' | 'editor') => {
    const email = uniqueEmail(role);
    await call(admin, 'POST', '/api/users', { name: `${role} wall`, email, password: PASSWORD, role, customerId: null });
    const session = (await apiAt(app.url, 'POST', '/api/auth/sign-in/email', { body: { email, password: PASSWORD } })).body.token as string;
    return (await call(session, 'POST', '/api/organization/tokens', { name: 'Team wall' })).token as string;
  };
  const failTwice = (publicId: string) => checkTwice(app.url, admin, publicId);
  const openWall = async (page: Page, token: string) => {
    await page.goto(`${app.url}/app/wall#token=${token}`);
    await page.getByRole('heading', { name: 'Monitors' }).waitFor();
    await page.getByRole('list', { name: 'Monitors needing attention' }).getByRole('listitem').first().waitFor();
  };

  before(async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    shots = readmeScreenshotsDir();
    const signUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Mary Jackson', email: uniqueEmail('wall'), password: PASSWORD, organizationName: 'Wall Ops' },
    });
    admin = signUp.body.token as string;
    const base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const customer = (await call(admin, 'POST', '/api/customers', { name: 'Harbour Logistics', email: 'ops@harbour.example' })).customer;
    for (let n = 1; n <= 24; n++) {
      const name = n === 1 ? 'Checkout API' : `Shop ${n}`;
      const site = await call(admin, 'POST', '/api/websites', {
        customerId: customer.id,
        name,
        url: `${base}/${n === 1 ? 'down' : 'up'}/${n}`,
      });
      monitors.push({ id: site.id, publicId: site.publicId, customerId: customer.id, name });
    }
    await failTwice(monitors[0]!.publicId);
    // The others checked once each (up), but a few left unchecked (unknown): the wall's usual mix.
    for (const monitor of monitors.slice(1, 20)) await checkTwice(app.url, admin, monitor.publicId, 1);
    readonlyToken = await tokenOf('readonly');
    editorToken = await tokenOf('editor');
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
  });

  it('takes its read-only token from the fragment, never sends it in an address, and shows down first, live', async () => {
    const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
    const page = await context.newPage();
    const watch = watchConsole(page);
    const addresses: string[] = [];
    const authorized: string[] = [];
    page.on('request', (request) => {
      addresses.push(request.url());
      if (request.headers().authorization === `Bearer ${readonlyToken}`) authorized.push(new URL(request.url()).pathname);
    });
    await openWall(page, readonlyToken);
    const tiles = page.getByRole('list', { name: 'Monitors needing attention' }).getByRole('listitem');
    await tiles.first().getByText('Checkout API').waitFor();
    expect(await tiles.first().textContent()).to.match(/^Down/);
    expect(new URL(page.url()).hash, 'the fragment is taken out of the address').to.equal('');
    expect(await page.evaluate('sessionStorage.getItem("wsm-wall-token")')).to.equal(readonlyToken);
    expect(addresses.filter((url) => url.includes(readonlyToken))).to.deep.equal([]);
    expect(authorized).to.include.members(['/api/auth/get-session', '/api/monitor-overview', '/api/events']);
    // Live: a monitor going down shows as a tile without a reload.
    failing.add('/up/2');
    const started = Date.now();
    await failTwice(monitors[1]!.publicId);
    await tiles.filter({ hasText: 'Shop 2' }).getByText('Down').waitFor({ timeout: 10_000 });
    expect(Date.now() - started).to.be.below(10_000);
    await page.waitForTimeout(500);
    expect(watch.stop()).to.deep.equal([]);
    // A reload keeps the wall (the tab's session storage), asking for nothing again.
    await page.reload();
    await tiles.filter({ hasText: 'Checkout API' }).waitFor();
    await context.close();
  });

  it('refuses a token that can change things, and asks for another', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${app.url}/app/wall#token=${editorToken}`);
    await page
      .getByRole('alert')
      .getByText(/read-only token only/)
      .waitFor();
    expect(await page.evaluate('sessionStorage.getItem("wsm-wall-token")')).to.equal(null);
    await page.getByLabel('Read-only API token').fill(readonlyToken);
    await page.getByRole('button', { name: 'Show the wall' }).click();
    await page.getByRole('list', { name: 'Monitors needing attention' }).getByText('Checkout API').waitFor();
    await context.close();
  });

  it('has no serious or critical axe violation, wide and at 375 px; a screenshot of each', async () => {
    for (const [width, height, scheme] of [
      [1600, 900, 'light'],
      [375, 800, 'dark'],
      [375, 800, 'light'],
    ] as const) {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme: scheme, bypassCSP: true });
      const page = await context.newPage();
      await openWall(page, readonlyToken);
      expect(await seriousViolations(page), `${width} ${scheme}`).to.deep.equal([]);
      if (scheme === 'light') await page.screenshot({ path: path.join(shots, width === 375 ? 'wall-375.png' : 'wall.png') });
      await context.close();
    }
  });

  it(`keeps its heap bounded while ${EVENTS} live events arrive`, async () => {
    const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
    const page = await context.newPage();
    const ids = monitors.map((m) => m.id);
    // The bytes the wall's event stream received (CDP Network): every event reached the page.
    const cdp = await context.newCDPSession(page);
    const streams = new Set<string>();
    let streamed = 0;
    cdp.on(
      'Network.requestWillBeSent',
      (e) => void (new URL(e.request.url).pathname === '/api/events' ? streams.add(e.requestId) : undefined),
    );
    cdp.on('Network.dataReceived', (e) => void (streams.has(e.requestId) ? (streamed += e.dataLength) : undefined));
    await cdp.send('Network.enable');
    await openWall(page, readonlyToken);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    /** `count` state changes of the monitors, appended by the statement the service's writers append them with, in rounds. */
    const send = async (count: number) => {
      for (let sent = 0; sent < count; sent += 200) {
        const notices = Array.from({ length: 200 }, (_, g) => ({
          kind: 'monitor.stateChanged' as const,
          monitorId: Number(ids[(g + sent) % ids.length]),
        }));
        await app.database.sql.query(liveEventsInsert(notices));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    // A first round warms the page (its code paths, the stream's buffers), then the heap is read.
    await send(500);
    await page.waitForTimeout(12_000);
    const before = await heap();
    const streamedBefore = streamed;
    await send(EVENTS);
    // Every event reached the wall's stream; its settling reads are done.
    await page.waitForTimeout(12_000);
    const after = await heap();
    // Each monitor.stateChanged frame is well over 150 bytes.
    expect(streamed - streamedBefore, 'the events reached the wall').to.be.at.least(EVENTS * 150);
    expect(await page.evaluate('document.querySelectorAll(".wall-tile").length')).to.be.at.most(48);
    expect(after - before, `heap grew ${after - before} bytes`).to.be.below(HEAP_BOUND);
    const metrics = await page.evaluate('performance.memory ? performance.memory.usedJSHeapSize : 0');
    expect(Number(metrics)).to.be.above(0);
    await context.close();
  });
});
