import { expect } from 'chai';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';

/** Where the screenshots go (looked at by eye; docs/console.md names them). */
const SHOTS = path.resolve(__dirname, '../../../.test-data/console');
const XSS = '<img src=x onerror=alert(1)>';

/**
 * The console in real headless Chromium, through the UI only, against the service as `npm start`
 * runs it (check worker on a loopback location): sign up, add a customer and a website monitor on a
 * loopback target, stop the target, watch the monitor go down and the incident appear live on other
 * open screens, acknowledge it, start the target, watch it resolve.
 */
describe('console: the first flows in a real browser', function () {
  this.timeout(120_000);
  let app: RunningApplication;
  let browser: Browser;
  let context: BrowserContext;
  let port = 0;
  const target = http.createServer((_req, res) => res.end('ok'));
  const listen = () => new Promise<void>((resolve) => target.listen(port, '127.0.0.1', resolve));
  const stopTarget = () =>
    new Promise<void>((resolve) => {
      target.close(() => resolve());
      target.closeAllConnections();
    });
  const dialogs: string[] = [];

  before(async () => {
    await listen();
    port = (target.address() as AddressInfo).port;
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    context.on('page', (page) => page.on('dialog', (dialog) => void dialog.dismiss().then(() => dialogs.push(dialog.message()))));
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    if (target.listening) await stopTarget();
  });

  const open = async (consolePath: string): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(`${app.url}/app${consolePath}`);
    return page;
  };
  const rowOf = (page: Page, name: string) => page.getByRole('list', { name: 'Monitors' }).getByRole('listitem').filter({ hasText: name });

  it('signs up, adds a customer and a monitor, sees it go down and the incident appear live, acknowledges it, and sees it resolve', async () => {
    const page = await context.newPage();
    await page.goto(app.url);
    await page.waitForURL(/\/app\/sign-in$/);
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(`ada-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('a long passphrase');
    await page.getByLabel('Organization').fill('Acme');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByText('No monitors yet.').waitFor();

    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByLabel('Customer name').fill('First customer');
    await page.getByLabel('Customer email').fill('ops@first.example');
    await page.getByRole('button', { name: 'Add customer' }).click();
    await page.getByRole('list', { name: 'Customers' }).getByText('First customer').waitFor();

    await page.getByRole('link', { name: 'Add monitor' }).click();
    await page.getByLabel('Name').fill('Shop');
    await page.getByLabel('URL').fill(`http://127.0.0.1:${port}/`);
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await page.getByRole('heading', { name: 'Shop' }).waitFor();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText(/^Result: up from local/).waitFor();

    // Two more screens stay open, never reloaded: they must follow the event stream.
    const overview = await open('/');
    await rowOf(overview, 'Shop').getByText('Up', { exact: true }).waitFor();
    const incidents = await open('/incidents');
    await incidents.getByText('No incidents.').waitFor();
    const reloads = { overview: 0, incidents: 0 };
    overview.on('load', () => reloads.overview++);
    incidents.on('load', () => reloads.incidents++);

    await stopTarget();
    // The customer's default: two failed checks in a row open an incident.
    for (let i = 0; i < 2; i++) {
      await page.getByRole('button', { name: 'Check now' }).click();
      await page.getByText(/^Result: down from local/).waitFor();
    }
    await rowOf(overview, 'Shop').getByText('Down', { exact: true }).waitFor({ timeout: 5_000 });
    // Its uptime bar is read again after the change, and tells the failed checks.
    await rowOf(overview, 'Shop')
      .getByRole('img', { name: /^Last 24h: \d+\.\d\d % up$/ })
      .waitFor({ timeout: 5_000 });
    await overview.getByRole('list', { name: 'Monitors per state' }).getByText('1 Down').waitFor();
    const incident = incidents.getByRole('list', { name: 'Incidents' }).getByRole('listitem').first();
    await incident.getByText('open', { exact: true }).waitFor({ timeout: 5_000 });

    await incident.getByRole('button', { name: 'Acknowledge' }).click();
    await incident.getByText('acknowledged', { exact: true }).waitFor();
    await incidents.screenshot({ path: path.join(SHOTS, 'incidents.png'), fullPage: true });

    await listen();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText(/^Result: up from local/).waitFor();
    await rowOf(overview, 'Shop').getByText('Up', { exact: true }).waitFor({ timeout: 5_000 });
    await incidents.getByText('No incidents.').waitFor({ timeout: 5_000 });
    expect(reloads).to.deep.equal({ overview: 0, incidents: 0 });

    await incidents.getByRole('button', { name: 'Resolved' }).click();
    await incidents.getByRole('list', { name: 'Incidents' }).getByText('resolved', { exact: true }).first().waitFor();
    await overview.screenshot({ path: path.join(SHOTS, 'overview.png'), fullPage: true });
    await page.reload();
    await page.getByRole('heading', { name: 'Check history' }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'monitor.png'), fullPage: true });
  });

  it('shows a monitor named like markup as text, at 375 px wide and in the dark scheme', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, colorScheme: 'dark' });
    phone.on('page', (page) => page.on('dialog', (dialog) => void dialog.dismiss().then(() => dialogs.push(dialog.message()))));
    const cookies = await context.cookies();
    await phone.addCookies(cookies);
    const page = await phone.newPage();
    await page.goto(`${app.url}/app/monitors/new`);
    await page.getByLabel('Name').fill(XSS);
    await page.getByLabel('URL').fill(`http://127.0.0.1:${port}/hostile`);
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await page.getByRole('heading', { name: XSS }).waitFor();
    // On a phone the links fold behind Menu.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Overview' }).click();
    const row = rowOf(page, XSS);
    await row.getByRole('link', { name: XSS }).waitFor();
    expect(await page.locator('img').count(), 'no element made from the name').to.equal(0);
    expect(dialogs).to.deep.equal([]);
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(width, 'no sideways scrolling at 375 px').to.be.at.most(375);
    await page.screenshot({ path: path.join(SHOTS, 'overview-375-dark.png'), fullPage: true });
    await phone.close();
  });
  it("shows a customer-bound user only its customer's monitors and customer, and a read-only one no write control", async () => {
    const call = (method: string, path: string, token: string, body?: unknown) => apiAt(app.url, method, path, { token, body });
    const admin = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Grace', email: uniqueEmail('grace'), password: 'a long passphrase', organizationName: 'Scoped' },
    });
    const token = admin.body.token as string;
    const ours = (await call('POST', '/api/customers', token, { name: 'Our customer', email: 'ops@ours.example', allowSelfService: true }))
      .body.customer;
    const theirs = (await call('POST', '/api/customers', token, { name: 'Their customer', email: 'ops@theirs.example' })).body.customer;
    for (const [customer, name] of [
      [ours, 'Our site'],
      [theirs, 'Their site'],
    ] as const) {
      const site = await call('POST', '/api/websites', token, {
        customerId: customer.id,
        url: `http://127.0.0.1:${port}/${customer.id}`,
        name,
      });
      expect(site.status, JSON.stringify(site.body)).to.equal(201);
    }
    const email = uniqueEmail('bound');
    const user = await call('POST', '/api/users', token, {
      name: 'Bound reader',
      email,
      password: 'a long passphrase',
      role: 'readonly',
      customerId: ours.id,
    });
    expect(user.status, JSON.stringify(user.body)).to.equal(201);

    const bound = await browser.newContext();
    const page = await bound.newPage();
    await page.goto(`${app.url}/app`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a long passphrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await rowOf(page, 'Our site').waitFor();
    expect(await rowOf(page, 'Their site').count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Add monitor' }).count()).to.equal(0);
    await page.getByRole('link', { name: 'Our site' }).click();
    await page.getByRole('heading', { name: 'Check history' }).waitFor();
    // "Check now" changes no configuration: the API lets every role ask for it (monitor.check), so it shows; nothing that changes the monitor does.
    expect(await page.getByRole('button', { name: 'Check now' }).count()).to.equal(1);
    expect(await page.getByRole('button', { name: 'Pause' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Delete…' }).count()).to.equal(0);
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('list', { name: 'Customers' }).getByText('Our customer').waitFor();
    expect(await page.getByText('Their customer').count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Add customer' }).count()).to.equal(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await bound.close();
  });
});
