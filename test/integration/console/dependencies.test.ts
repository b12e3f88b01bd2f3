import { expect } from 'chai';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';
import { waitFor } from '../../support/wait-for';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');
const PASSWORD = 'a long passphrase';

/**
 * Dependencies between monitors in real Chromium, through the UI: "Depends on" chosen in the edit
 * form and shown on the monitor page, a loop refused at the field in the API's words (naming it),
 * then the server and its site down on a loopback target checked by the check worker: the site's
 * page says it is held back by the server (a link), and the server's incident lists the site among
 * its affected monitors; axe on the form and the pages at 1,100 px light and 375 px dark.
 */
describe('console: dependencies between monitors', function () {
  this.timeout(90_000);
  let app: RunningApplication;
  let browser: Browser;
  let admin: BrowserContext;
  let dark: BrowserContext;
  let token = '';
  const target = http.createServer((_req, res) => res.end('ok'));
  const call = (method: string, url: string, body?: unknown) => apiAt(app.url, method, url, { token, body });
  const ids: Record<'server' | 'shop', string> = { server: '', shop: '' };

  // Building the console when its sources changed (once per run; `npm test` builds it first) can take a minute or more.
  before(async function () {
    this.timeout(240_000);
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
    const email = uniqueEmail('dependencies');
    const signUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Grace Hopper', email, password: PASSWORD, organizationName: 'Dependencies' },
    });
    token = signUp.body.token as string;
    const customerId = (await call('POST', '/api/customers', { name: 'Harbour Co', email: 'ops@harbour.example' })).body.customer.id;
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    for (const [key, name] of [
      ['server', 'Harbour server'],
      ['shop', 'Harbour shop'],
    ] as const) {
      const created = await call('POST', '/api/websites', { name, url, customerId, monitoringType: 'http' });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      ids[key] = created.body.publicId;
    }
    const signedIn = await apiAt(app.url, 'POST', '/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
    const [name, value] = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!.split('=') as [string, string];
    admin = await browser.newContext({ viewport: { width: 1100, height: 800 }, bypassCSP: true });
    dark = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: 'dark', bypassCSP: true });
    for (const context of [admin, dark]) await context.addCookies([{ name, value, url: app.url }]);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    if (target.listening) await new Promise((resolve) => target.close(resolve));
  });

  /** axe on the page as it is (1,100 px light), then the same path at 375 px dark, with screenshots. */
  const axeBoth = async (page: Page, label: string, ready: (p: Page) => Promise<void>) => {
    expect(await seriousViolations(page), `${label} light`).to.deep.equal([]);
    await page.screenshot({ path: path.join(SHOTS, `dependencies-${label}-1100-light.png`), fullPage: true });
    const narrow = await dark.newPage();
    await narrow.goto(page.url());
    await ready(narrow);
    await narrow.waitForLoadState('networkidle');
    expect(await seriousViolations(narrow), `${label} dark`).to.deep.equal([]);
    await narrow.screenshot({ path: path.join(SHOTS, `dependencies-${label}-375-dark.png`), fullPage: true });
    await narrow.close();
  };

  /** A check of the monitor from every location, waited for (the check worker runs it). */
  const checked = async (id: string) => {
    const newest = async () =>
      (await call('GET', `/api/websites/${id}/check-history`, undefined)).body.items[0]?.checkedAt as string | undefined;
    const before = await newest();
    expect((await call('POST', `/api/websites/${id}/trigger-check`)).status).to.be.oneOf([200, 202]);
    await waitFor(async () => (await newest()) !== before, { timeoutMs: 20_000, everyMs: 200, what: 'the check result' });
  };

  it('picks "Depends on" in the edit form, shows it on the monitor page, and refuses a loop at the field naming it', async () => {
    const page = await admin.newPage();
    await page.goto(`${app.url}/app/monitors/website/${ids.shop}/edit`);
    await page.getByRole('heading', { name: 'Edit Harbour shop' }).waitFor();
    const picker = page.getByRole('group', { name: 'Depends on' });
    await picker.getByLabel('Find a monitor').fill('server');
    await picker.getByRole('checkbox', { name: 'Harbour server' }).check();
    await page.waitForLoadState('networkidle');
    await axeBoth(page, 'edit-form', async (p) => {
      await p.getByRole('heading', { name: 'Edit Harbour shop' }).waitFor();
    });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Harbour shop' }).waitFor();
    const dependencies = page.getByRole('region', { name: 'Depends on' });
    await dependencies.getByRole('link', { name: 'Harbour server' }).waitFor();
    expect((await call('GET', `/api/websites/${ids.shop}`)).body.dependsOn).to.deep.equal([ids.server]);

    // The server depending on the shop would close a loop: the API's dependencyCycle, at the field.
    await page.goto(`${app.url}/app/monitors/website/${ids.server}/edit`);
    await page.getByRole('heading', { name: 'Edit Harbour server' }).waitFor();
    await page.getByRole('group', { name: 'Depends on' }).getByRole('checkbox', { name: 'Harbour shop' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const refusal = page.locator('#monitor-depends-on-error');
    await refusal.waitFor();
    expect(await refusal.textContent())
      .to.contain('The dependencies would form a loop')
      .and.contain('Harbour server → Harbour shop → Harbour server');
    expect((await call('GET', `/api/websites/${ids.server}`)).body.dependsOn).to.deep.equal([]);
    await page.close();
  });

  it("shows the site held back by the server's incident, naming it with a link, and the incident lists the site", async () => {
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
    // The customer's default: two failed checks in a row confirm; the server first opens its incident.
    for (const id of [ids.server, ids.server, ids.shop, ids.shop]) await checked(id);
    await waitFor(async () => (await call('GET', `/api/websites/${ids.shop}`)).body.currentState.status === 'dependencyDown', {
      timeoutMs: 10_000,
      what: 'the shop held back by the server',
    });

    const page = await admin.newPage();
    await page.goto(`${app.url}/app/monitors/website/${ids.shop}`);
    const held = page.getByText(/^Held back by a dependency:/);
    await held.getByRole('link', { name: 'Harbour server' }).waitFor();
    expect(await held.textContent()).to.contain('Harbour server is down');
    await page.waitForLoadState('networkidle');
    await axeBoth(page, 'monitor-page', async (p) => {
      await p.getByText(/^Held back by a dependency:/).waitFor();
    });
    await held.getByRole('link', { name: 'Harbour server' }).click();
    await page.getByRole('heading', { name: 'Harbour server' }).waitFor();

    const incidents = await call('GET', '/api/incidents', undefined);
    const open = (incidents.body.items as Array<{ publicId: string; status: string; title: string }>).filter((i) => i.status === 'open');
    expect(open, 'one incident for the root cause').to.have.length(1);
    await page.goto(`${app.url}/app/incidents/${open[0]!.publicId}`);
    const affected = page.getByRole('region', { name: /^Affected monitors/ });
    await affected.getByRole('link', { name: 'Harbour shop' }).waitFor();
    expect(await affected.getByRole('heading').textContent()).to.equal('Affected monitors (1)');
    await page.waitForLoadState('networkidle');
    await axeBoth(page, 'incident-page', async (p) => {
      await p.getByRole('region', { name: /^Affected monitors/ }).waitFor();
    });
    await page.close();
  });
});
