import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { uniqueEmail } from '../../support/builders';
import { aConsoleService, launchConsoleBrowser } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { PASSWORD } from '../../support/identity-fixtures';
import { waitFor } from '../../support/wait-for';

const MONITOR = 'Harbour checkout';

/**
 * The console's service worker offline, in real Chromium: the console loaded once (the worker
 * installs and keeps the shell, and the overview it reads), then the network gone and the page
 * reloaded: the shell shows the last overview and incidents read, and says how old they are.
 */
describe('console: offline, the shell and the last state read (service worker)', function () {
  this.timeout(240_000);
  let app: RunningApplication;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token = '';
  const target = http.createServer((_req, res) => res.end('ok'));

  before(async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    const admin = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Grace Hopper', email: uniqueEmail('offline'), password: PASSWORD, organizationName: 'Harbour' },
    });
    token = admin.body.token as string;
    const call = (method: string, url: string, body?: unknown) => apiAt(app.url, method, url, { token, body });
    const customer = (await call('POST', '/api/customers', { name: 'Harbour Co', email: 'ops@harbour.example' })).body.customer;
    const site = await call('POST', '/api/websites', {
      customerId: customer.id,
      name: MONITOR,
      url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/`,
    });
    expect(site.status, JSON.stringify(site.body)).to.equal(201);
    const opened = await call('POST', '/api/incidents', { monitorId: site.body.publicId, title: 'Checkout slow' });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    target.close();
  });

  /** The URLs the worker keeps as the last state read (its `state-v1` cache). */
  const kept = (): Promise<string[]> =>
    page.evaluate(`caches.open('state-v1').then((cache) => cache.keys()).then((keys) => keys.map((r) => r.url))`) as Promise<string[]>;

  it('reloads without a network: the shell shows the last overview read and its age; the incidents too', async () => {
    context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    await context.addCookies([{ name: 'wsm_session', value: token, url: app.url }]);
    page = await context.newPage();
    await page.goto(`${app.url}/app/`);
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    // The first load was not the worker's yet: the next one is, and its reads are kept.
    await page.reload();
    await page.getByText(MONITOR).first().waitFor();
    await page.goto(`${app.url}/app/incidents`);
    await page.getByText('Checkout slow').first().waitFor();
    await page.goto(`${app.url}/app/`);
    await page.getByText(MONITOR).first().waitFor();
    await waitFor(async () => (await kept()).some((url) => new URL(url).pathname === '/api/monitor-overview'), {
      what: 'the overview kept by the worker',
    });

    await context.setOffline(true);
    // Seven minutes on (the page's clock): the note says how old what it shows is.
    await page.clock.setFixedTime(new Date(Date.now() + 7 * 60_000));
    const shell = (await page.reload())!;
    // The shell the worker kept, under the console's policy as served.
    expect(shell.fromServiceWorker()).to.equal(true);
    expect(shell.headers()['content-security-policy'])
      .to.include("script-src 'self'")
      .and.not.match(/unsafe-inline|unsafe-eval/);
    await page.getByText(MONITOR).first().waitFor({ timeout: 20_000 });
    const note = page.getByRole('status').filter({ hasText: 'Offline' });
    await note.waitFor();
    expect(await note.textContent()).to.match(/^Offline: showing the last state read, 7 min ago \(/);
    expect(await page.evaluate('navigator.onLine')).to.equal(false);

    await page.goto(`${app.url}/app/incidents`);
    await page.getByText('Checkout slow').first().waitFor({ timeout: 20_000 });
    await page.getByRole('status').filter({ hasText: 'Offline' }).waitFor();

    // The network back: the next load reads it again, and the note is gone.
    await context.setOffline(false);
    await page.clock.setFixedTime(new Date());
    await page.goto(`${app.url}/app/`);
    await page.getByText(MONITOR).first().waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Offline' }).count()).to.equal(0);
  });
});
