import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { uniqueEmail } from '../../support/builders';
import { aConsoleService, launchConsoleBrowser } from '../../support/console-browser';
import { watchConsole } from '../../support/console-errors';
import { apiAt } from '../../support/http-client';
import { checkTwice } from '../../support/console-checks';
import { PASSWORD } from '../../support/identity-fixtures';
import { readmeScreenshotsDir } from '../../support/readme-screenshots';
import { setIncidentManagement, setIncidentManagementSeenAt } from '../../support/im-fixtures';

const PHONE = { width: 375, height: 800 };
const LONG_NAME = 'Harbour logistics customer portal (production, primary region, behind the load balancer)';
const LONG_PATH = '/a/very/long/health/check/path/that/does/not/fit/on/one/line/of/a/phone/screen?probe=deep&format=json';

/**
 * The console on a phone (375 x 800), against a real service with monitors made down by their
 * checks: down first and above the fold, a header of one line, filters behind one button, long
 * names and addresses wrapped (never clipped), every act at least 44 px tall on the overview, an
 * incident's page and the on-call screens. The README's pictures of it go to .test-data/screenshots,
 * or docs/screenshots with UPDATE_SCREENSHOTS=1 (`npm run screenshots`).
 */
describe('console: phone first (375 x 800)', function () {
  this.timeout(300_000);
  let shots = '';
  let app: RunningApplication;
  let browser: Browser;
  let admin: string;
  let organizationId: number;
  let incidentPath: string;
  const target = http.createServer((req, res) => {
    res.statusCode = req.url?.startsWith('/down') ? 503 : 200;
    res.end(res.statusCode === 200 ? 'ok' : 'down');
  });

  const call = async (token: string, method: string, route: string, body?: unknown) => {
    const response = await apiAt(app.url, method, route, { token, ...(body === undefined ? {} : { body }) });
    if (response.status >= 300) throw new Error(`setup ${method} ${route}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const phone = async (): Promise<BrowserContext> => {
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    await context.addCookies([{ name: 'wsm_session', value: admin, url: app.url }]);
    return context;
  };
  /** The visible controls of the page's main part (and header) shorter than 44 px: "label: height". */
  const smallControls = async (page: Page): Promise<string[]> =>
    (await page.evaluate(`[...document.querySelectorAll('button, a.button-link, input:not([type=checkbox]):not([type=radio]), select')]
      .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
      .map((el) => ({ label: (el.getAttribute('aria-label') || el.textContent || el.getAttribute('name') || el.tagName).trim(), h: el.getBoundingClientRect().height }))
      .filter(({ h }) => h < 43.5)
      .map(({ label, h }) => label + ': ' + h)`)) as string[];

  before(async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    shots = readmeScreenshotsDir();
    const signUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Katherine Johnson', email: uniqueEmail('phone'), password: PASSWORD, organizationName: 'Harbour Ops' },
    });
    admin = signUp.body.token as string;
    organizationId = signUp.body.user.organizationId as number;
    const base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const customer = (
      await call(admin, 'POST', '/api/customers', { name: 'Harbour Logistics International', email: 'ops@harbour.example' })
    ).customer;
    const other = (await call(admin, 'POST', '/api/customers', { name: 'Lighthouse Co', email: 'ops@lighthouse.example' })).customer;
    for (let n = 1; n <= 14; n++) {
      await call(admin, 'POST', '/api/websites', { customerId: n % 2 ? customer.id : other.id, name: `Shop ${n}`, url: `${base}/up/${n}` });
    }
    const down = [
      await call(admin, 'POST', '/api/websites', { customerId: customer.id, name: LONG_NAME, url: `${base}/down${LONG_PATH}` }),
      await call(admin, 'POST', '/api/websites', { customerId: other.id, name: 'Checkout API', url: `${base}/down/checkout` }),
    ];
    // Each down monitor's checks fail twice: its incident opens as in production.
    for (const site of down) await checkTwice(app.url, admin, site.publicId);
    for (let tries = 0; ; tries++) {
      const overview = await call(admin, 'GET', '/api/monitor-overview?perPage=100');
      if (overview.items.filter((item: { state: string }) => item.state === 'down').length === 2) break;
      if (tries > 300) throw new Error('the failing monitors never went down');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const incidents = await call(admin, 'GET', `/api/incidents?monitorId=${down[0].id}`);
    incidentPath = `/incidents/${incidents.items[0].publicId}`;
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
  });

  it('shows what is down first, above the fold, under a header of one line; filters fold behind one button', async () => {
    const context = await phone();
    const page = await context.newPage();
    const watch = watchConsole(page);
    await page.goto(`${app.url}/app/`);
    await page.getByText('of 16 monitors shown').waitFor();
    await watch.quiet();
    const header = await page.locator('header.top').boundingBox();
    expect(header!.height, 'the header is one line').to.be.at.most(60);
    expect(await page.getByRole('link', { name: 'Customers' }).isVisible(), 'the links fold behind Menu').to.equal(false);
    expect(await page.getByLabel('Search').isVisible(), 'the filters fold behind one button').to.equal(false);
    const lines = page.getByRole('list', { name: 'Monitors', exact: true }).getByRole('listitem');
    for (const index of [0, 1]) {
      const line = lines.nth(index);
      await line.locator('.badge-down').waitFor();
      const box = await line.boundingBox();
      expect(box!.y + box!.height, `down line ${index + 1} is above the fold`).to.be.at.most(PHONE.height);
    }
    // The long name and its address and customer wrap inside their line: nothing overflows it.
    const long = lines.filter({ hasText: LONG_NAME });
    const lineBox = (await long.boundingBox())!;
    for (const part of ['.monitor-name', '.monitor-target', '.monitor-meta']) {
      const box = (await long.locator(part).first().boundingBox())!;
      expect(box.y + box.height, `${part} inside its line`).to.be.at.most(lineBox.y + lineBox.height + 0.5);
      expect(box.x + box.width, `${part} inside the screen`).to.be.at.most(PHONE.width);
    }
    expect(await long.locator('.monitor-target').textContent()).to.include('/not/fit/on/one/line/');
    const clipped = await long.evaluate((el: { scrollHeight: number; clientHeight: number }) => el.scrollHeight > el.clientHeight + 1);
    expect(clipped, 'the line is not clipped').to.equal(false);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).to.be.at.most(PHONE.width);
    expect(await smallControls(page)).to.deep.equal([]);
    await page.screenshot({ path: path.join(shots, 'overview-375.png') });
    // One button unfolds the filters; the search still narrows the list.
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByLabel('Search').fill('checkout');
    await page.getByText('1 of 16 monitors shown').waitFor();
    // Menu unfolds the links, each as tall as a finger.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Customers' }).waitFor();
    expect(await smallControls(page)).to.deep.equal([]);
    // (Leaving the overview closes its event stream, which the browser reports as aborted: read before.)
    expect(watch.stop()).to.deep.equal([]);
    await page.getByRole('link', { name: 'Incidents' }).click();
    await page.getByRole('heading', { name: 'Incidents' }).waitFor();
    expect(await page.getByRole('link', { name: 'Customers' }).isVisible(), 'the menu folds again on the next screen').to.equal(false);
    await context.close();
  });

  it("shows an incident's acts at 44 px or more, and the on-call screens too", async () => {
    const context = await phone();
    const page = await context.newPage();
    await page.goto(`${app.url}/app${incidentPath}`);
    await page.getByRole('heading', { name: new RegExp(`${LONG_NAME.slice(0, 20).replace(/[()]/g, '\\$&')}`) }).waitFor();
    await page.getByRole('button', { name: 'Acknowledge' }).first().waitFor();
    await page.getByRole('button', { name: 'Resolve' }).first().waitFor();
    expect(await smallControls(page)).to.deep.equal([]);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).to.be.at.most(PHONE.width);
    await page.screenshot({ path: path.join(shots, 'incident-375.png') });
    await setIncidentManagementSeenAt(app.url, admin, organizationId, true);
    await call(admin, 'POST', '/api/im/incidents', { title: 'Pager storm' });
    for (const section of ['', '/schedules', '/escalation', '/incidents', '/sources', '/teams']) {
      await page.goto(`${app.url}/app/on-call${section}`);
      await page.locator('h1').first().waitFor();
      // Every act on an incident of incident management, escalate now among them, is there to tap.
      if (section === '/incidents')
        for (const name of ['Acknowledge Pager storm', 'Snooze an hour: Pager storm', 'Escalate now: Pager storm', 'Resolve Pager storm'])
          await page.getByRole('button', { name }).waitFor();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      expect(await smallControls(page), `on-call${section}`).to.deep.equal([]);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `on-call${section}`).to.be.at.most(PHONE.width);
      if (section === '/incidents') await page.screenshot({ path: path.join(shots, 'on-call-incidents-375.png') });
    }
    await setIncidentManagement(organizationId, false);
    await context.close();
  });

  it('keeps the desktop as it was: links and filters shown, no Menu or Filters button', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'wsm_session', value: admin, url: app.url }]);
    const page = await context.newPage();
    await page.goto(`${app.url}/app/`);
    await page.getByText('of 16 monitors shown').waitFor();
    expect(await page.getByRole('link', { name: 'Customers' }).isVisible()).to.equal(true);
    // The links keep their spacing, on the header's one line.
    const overviewLink = (await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).boundingBox())!;
    const incidentsLink = (await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Incidents' }).boundingBox())!;
    expect(incidentsLink.x - (overviewLink.x + overviewLink.width), 'space between two links').to.be.at.least(12);
    expect(incidentsLink.y).to.equal(overviewLink.y);
    expect(await page.getByLabel('Search').isVisible()).to.equal(true);
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).to.equal(false);
    expect(await page.getByRole('button', { name: 'Filters' }).isVisible()).to.equal(false);
    const row = (await page
      .getByRole('list', { name: 'Monitors', exact: true })
      .getByRole('listitem')
      .filter({ hasText: 'Shop 1' })
      .first()
      .boundingBox())!;
    expect(row.height, 'a desktop line keeps its height').to.be.within(63, 72);
    await context.close();
  });
});
