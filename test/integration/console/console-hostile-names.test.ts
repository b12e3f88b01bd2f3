import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';
import { waitFor } from '../../support/wait-for';

/** A name that runs a script wherever it is put into the page as markup rather than text. */
const HOSTILE = '<img src=x onerror=alert(1)>';
const PASSWORD = 'a long passphrase';

/**
 * A monitor, a customer, a tag, an incident, a channel, a maintenance window, a status page and a
 * location all named like markup; every screen of the console walked in Chromium with the
 * console's own Content-Security-Policy in force: no dialog opens, no script error is thrown, and
 * where a screen shows those names it shows them as text.
 */
describe('console: names that look like markup are text on every screen', function () {
  this.timeout(180_000);
  let app: RunningApplication;
  let browser: Browser;
  const target = http.createServer((_req, res) => res.writeHead(503).end('down'));
  let token = '';
  const call = async (method: string, url: string, body?: unknown) => {
    const answer = await apiAt(app.url, method, url, { token, body });
    if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };

  before(async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
  });

  it('walks every screen without running the names and shows them as text', async () => {
    const email = uniqueEmail('hostile');
    token = (
      await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
        body: { name: HOSTILE, email, password: PASSWORD, organizationName: HOSTILE },
      })
    ).body.token;
    const { customer } = await call('POST', '/api/customers', { name: HOSTILE, email: 'ops@hostile.example' });
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    const monitor = await call('POST', '/api/websites', { customerId: customer.id, name: HOSTILE, url });
    const tag = await call('POST', '/api/tags', { name: HOSTILE, color: '#EF4444', customerId: customer.id });
    await call('POST', '/api/monitor-tags', { tagId: tag.publicId, monitorId: monitor.publicId, monitorType: 'website' });
    await call('POST', '/api/notification-channels', { name: HOSTILE, type: 'webhook', config: { url: 'https://hooks.example.com/x' } });
    const start = new Date(Date.now() + 86_400_000);
    await call('POST', '/api/maintenance-windows', {
      title: HOSTILE,
      startTime: start.toISOString(),
      endTime: new Date(start.getTime() + 3_600_000).toISOString(),
      targets: [{ type: 'monitor', id: monitor.publicId }],
    });
    const statusPage = await call('POST', '/api/status-pages', {
      title: HOSTILE,
      slug: `hostile-${Date.now().toString(36)}`,
      groups: [{ name: HOSTILE, components: [{ type: 'monitor', id: monitor.publicId }] }],
    });
    await call('POST', '/api/locations', { code: `hostile-${Date.now().toString(36)}`.slice(0, 30), name: HOSTILE });
    // Two failing checks open the monitor's incident (named after the monitor).
    for (let i = 0; i < 2; i += 1) {
      const before = (await call('GET', `/api/websites/${monitor.publicId}/check-history?perPage=1`)).total ?? 0;
      await call('POST', `/api/websites/${monitor.publicId}/trigger-check`);
      await waitFor(async () => ((await call('GET', `/api/websites/${monitor.publicId}/check-history?perPage=1`)).total ?? 0) > before);
    }
    const incident = await waitFor(async () => (await call('GET', '/api/incidents')).items?.[0] ?? null);

    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    const ran: string[] = [];
    page.on('dialog', (dialog) => {
      ran.push(`dialog on ${page.url()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => ran.push(`script error on ${page.url()}: ${error.message}`));
    await page.goto(`${app.url}/app/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();

    const shown = async (path: string) => {
      await visit(page, `${app.url}/app${path}`);
      await page.getByText(HOSTILE, { exact: true }).first().waitFor({ timeout: 10_000 });
    };
    await shown('/');
    await shown(`/monitors/website/${monitor.publicId}`);
    await shown(`/monitors/website/${monitor.publicId}/edit`);
    await shown('/customers');
    await shown(`/customers/${customer.publicId}`);
    await shown('/incidents');
    await visit(page, `${app.url}/app/incidents/${incident.id}`);
    await page.getByText(HOSTILE, { exact: false }).first().waitFor();
    await shown('/channels');
    await shown('/maintenance');
    await shown('/status-pages');
    await shown(`/status-pages/${statusPage.id}`);
    await shown('/organization/locations');
    for (const path of [
      '/monitors/new',
      '/change-requests',
      '/custom-domains',
      '/organization',
      '/organization/users',
      '/organization/tokens',
      '/organization/agents',
      '/organization/audit-log',
      '/organization/reports',
      '/organization/export',
      '/organization/billing',
      '/organization/smtp',
      '/organization/branding',
      '/account',
    ])
      await visit(page, `${app.url}/app${path}`);
    // The user's own name is in the header of every screen: as text.
    expect(await page.getByText(HOSTILE, { exact: true }).first().isVisible()).to.equal(true);
    expect(await page.locator('img[src="x"]').count()).to.equal(0);
    expect(ran).to.deep.equal([]);
    await context.close();
  });
});

/** Opens a screen and waits until it has drawn its heading and settled. */
async function visit(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
}
