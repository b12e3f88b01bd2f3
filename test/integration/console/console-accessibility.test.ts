import { expect } from 'chai';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';

/** Where the screenshots go (looked at by eye). */
const SHOTS = path.resolve(__dirname, '../../../.test-data/console');

/**
 * Every console screen, at a desktop and a phone width, in the light and the dark scheme: axe-core
 * finds no serious or critical violation. (axe is injected into the page, so these contexts bypass
 * the console's Content-Security-Policy; the flows test keeps it.)
 */
describe('console: accessibility of every screen (axe-core, desktop and phone)', function () {
  this.timeout(120_000);
  let app: RunningApplication;
  let browser: Browser;
  let failing = false;
  const target = http.createServer((_req, res) => {
    res.statusCode = failing ? 503 : 200;
    res.end(failing ? 'down' : 'ok');
  });

  before(async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    await new Promise((resolve) => target.close(resolve));
  });

  it('has no serious or critical violation on any screen', async () => {
    const violations: string[] = [];
    const check = async (page: Page, label: string) => {
      for (const v of await seriousViolations(page)) violations.push(`${label}: ${v}`);
      await page.screenshot({ path: path.join(SHOTS, `a11y-${label.replaceAll('/', '_')}.png`), fullPage: true });
    };

    const desktop = await browser.newContext({ viewport: { width: 1100, height: 800 }, bypassCSP: true });
    const page = await desktop.newPage();
    await page.goto(`${app.url}/app/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await check(page, 'desktop-sign-in');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Sign up' }).waitFor();
    await check(page, 'desktop-sign-up');
    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByLabel('Email').fill(`grace-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('a long passphrase');
    await page.getByLabel('Organization').fill('Navy');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByLabel('Customer name').fill('Fleet');
    await page.getByLabel('Customer email').fill('ops@fleet.example');
    await page.getByRole('button', { name: 'Add customer' }).click();
    await page.getByRole('list', { name: 'Customers' }).getByText('Fleet', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Add monitor' }).click();
    await page.getByLabel('Name').fill('Harbour');
    await page.getByLabel('URL').fill(`http://127.0.0.1:${(target.address() as AddressInfo).port}/`);
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await page.getByRole('heading', { name: 'Harbour' }).waitFor();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText(/^Result: up from local/).waitFor();
    const monitorPath = new URL(page.url()).pathname.slice('/app'.length);
    failing = true;
    for (let i = 0; i < 2; i++) {
      await page.getByRole('button', { name: 'Check now' }).click();
      await page.getByText(/^Result: down from local/).waitFor();
    }
    const incidentLink = page.getByRole('list', { name: 'Incidents' }).getByRole('link').first();
    await incidentLink.waitFor({ timeout: 5_000 });
    const incidentPath = (await incidentLink.getAttribute('href'))!.slice('/app'.length);

    const screens: Array<[string, string, string]> = [
      ['/', 'Overview', 'overview'],
      [monitorPath, 'Harbour', 'monitor'],
      ['/incidents', 'Incidents', 'incidents'],
      [incidentPath, 'Harbour is down', 'incident'],
      ['/customers', 'Customers', 'customers'],
      ['/monitors/new', 'Add a website monitor', 'new-monitor'],
    ];
    const state = await desktop.storageState();
    for (const [width, scheme] of [
      [1100, 'light'],
      [375, 'dark'],
      [375, 'light'],
    ] as const) {
      const context = await browser.newContext({
        viewport: { width, height: 800 },
        colorScheme: scheme,
        bypassCSP: true,
        storageState: state,
      });
      const tab = await context.newPage();
      for (const [screen, heading, label] of screens) {
        await tab.goto(`${app.url}/app${screen}`);
        await tab.getByRole('heading', { name: heading, exact: true }).first().waitFor();
        await check(tab, `${width}-${scheme}-${label}`);
      }
      if (width === 375) {
        // The phone's folded parts, unfolded: the menu and the overview's filters.
        await tab.goto(`${app.url}/app/`);
        await tab.getByRole('heading', { name: 'Overview', exact: true }).waitFor();
        await tab.getByRole('button', { name: 'Menu' }).click();
        await tab.getByRole('button', { name: 'Filters' }).click();
        await tab.getByLabel('Search').waitFor();
        await check(tab, `${width}-${scheme}-overview-unfolded`);
      }
      await context.close();
    }
    // The wall display, with a read-only user's token, wide and on a phone.
    const session = (await desktop.cookies()).find((c) => c.name === 'wsm_session')!.value;
    const viewer = `viewer-${Date.now()}@example.com`;
    const headers = { 'content-type': 'application/json', origin: app.url };
    const post = async (route: string, token: string, body: unknown) => {
      const response = await fetch(`${app.url}${route}`, {
        method: 'POST',
        headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers,
        body: JSON.stringify(body),
      });
      expect(response.status, route).to.be.below(300);
      return (await response.json()) as Record<string, any>;
    };
    await post('/api/users', session, {
      name: 'Wall viewer',
      email: viewer,
      password: 'a long passphrase',
      role: 'readonly',
      customerId: null,
    });
    const signedInViewer = await post('/api/auth/sign-in/email', '', { email: viewer, password: 'a long passphrase' });
    const { token: wallToken } = await post('/api/organization/tokens', signedInViewer.token as string, { name: 'Wall' });
    for (const [width, scheme] of [
      [1600, 'light'],
      [375, 'dark'],
      [375, 'light'],
    ] as const) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, bypassCSP: true });
      const tab = await context.newPage();
      await tab.goto(`${app.url}/app/wall#token=${wallToken as string}`);
      await tab.getByRole('list', { name: 'Monitors needing attention' }).getByText('Harbour').waitFor();
      await check(tab, `${width}-${scheme}-wall`);
      await context.close();
    }
    await desktop.close();
    expect(violations).to.deep.equal([]);
  });
});
