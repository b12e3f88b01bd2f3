import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';
import { testDnsServer } from '../../support/test-server';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');
const PASSWORD = 'a long passphrase';
/** The customer's own name for the console: Chromium maps every name under it to loopback, as the customer's DNS would to the service. */
const BRAND_ZONE = 'brand-console.com';
const HOSTNAME = `console-${randomBytes(4).toString('hex')}.${BRAND_ZONE}`;
/** A 1x1 PNG: the organization's logo. */
const LOGO_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * Status pages, custom domains and white-label through the console, in real Chromium: a page with a
 * component and its live preview, a subscriber, a page incident with its updates; a custom domain
 * proved against the tests' DNS server and activated; the organization's look on that domain.
 */
describe('console: status pages, custom domains and white-label', function () {
  this.timeout(120_000);
  let app: RunningApplication;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let email = '';
  let token = '';
  let pageId = '';
  const violations: string[] = [];
  const target = http.createServer((_req, res) => res.end('ok'));

  const shot = (p: Page, name: string) => p.screenshot({ path: path.join(SHOTS, `status-pages-${name}.png`), fullPage: true });
  const axe = async (p: Page, label: string) => {
    for (const v of await seriousViolations(p)) violations.push(`${label}: ${v}`);
    await shot(p, label);
  };

  before(async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService();
    browser = await launchConsoleBrowser([`--host-resolver-rules=MAP *.${BRAND_ZONE} 127.0.0.1`]);
    // axe is injected as a script: these contexts bypass the CSP; the white-label look is checked under it below.
    context = await browser.newContext({ viewport: { width: 1100, height: 800 }, bypassCSP: true });
    fs.mkdirSync(SHOTS, { recursive: true });
    email = uniqueEmail('status');
    const admin = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Mary Jackson', email, password: PASSWORD, organizationName: 'Harbour' },
    });
    token = admin.body.token as string;
    const customer = (await apiAt(app.url, 'POST', '/api/customers', { token, body: { name: 'Harbour Co', email: 'ops@harbour.example' } }))
      .body.customer;
    const site = await apiAt(app.url, 'POST', '/api/websites', {
      token,
      body: { customerId: customer.id, name: 'Harbour shop', url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/` },
    });
    expect(site.status, JSON.stringify(site.body)).to.equal(201);
    const objective = await apiAt(app.url, 'POST', '/api/service-levels', {
      token,
      body: { name: 'Shop availability', target: 99.9, window: 'rolling30d', subject: { type: 'website', websiteId: site.body.publicId } },
    });
    expect(objective.status, JSON.stringify(objective.body)).to.equal(201);
    page = await context.newPage();
    await page.goto(`${app.url}/app/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    await new Promise((resolve) => target.close(resolve));
  });

  it('creates a status page with a component seen in the live preview, a subscriber, and a page incident with its updates', async () => {
    await page.getByRole('link', { name: 'Status pages' }).click();
    await page.getByRole('heading', { name: 'Status pages' }).waitFor();
    await page.getByLabel('Title').fill('Harbour status');
    await axe(page, 'list');
    await page.getByRole('button', { name: 'Create status page' }).click();
    await page.getByRole('heading', { name: 'Harbour status', level: 1 }).waitFor();
    pageId = new URL(page.url()).pathname.split('/').pop()!;

    // Components, seen in the preview before they are saved.
    await page.getByLabel('New group name').fill('Websites');
    await page.getByRole('button', { name: 'Add group' }).click();
    await page.getByLabel('Monitor to add to Websites').selectOption({ label: 'Harbour shop (Harbour Co)' });
    await page.getByRole('button', { name: 'Add component' }).click();
    await page.getByLabel('Description').fill('Live state of the Harbour shop');
    const preview = page.getByRole('list', { name: 'Preview of Websites' });
    await preview.getByText('Harbour shop').waitFor();
    await preview.getByText('State shown once saved').waitFor();
    await page.locator('.sp-preview').getByText('Live state of the Harbour shop').waitFor();
    // A service level objective to show: chosen, seen in the preview, its attainment once saved.
    await page.getByLabel('Objective to show').selectOption({ label: 'Shop availability (99.9% · last 30 days)' });
    await page.getByRole('button', { name: 'Add objective' }).click();
    await page.getByRole('list', { name: 'Service levels shown on the page' }).getByText('Shop availability').waitFor();
    const slo = page.locator('.sp-preview .sp-preview-slo');
    await slo.getByText('Attainment shown once saved').waitFor();
    await page.getByRole('button', { name: 'Save page' }).click();
    await page.getByText('Saved: the page shows these settings now.').waitFor();
    // Saved: the preview reads the component's state from the public view.
    await preview.getByText(/^(Operational|Unknown|Down|Degraded)/).waitFor();
    await slo.getByText(/^(No data yet|\d+(\.\d+)?% of 99\.9% · (met|missed))$/).waitFor();
    const saved = await apiAt(app.url, 'GET', `/api/public/status-pages/harbour-status`, {});
    expect(saved.body.groups[0].components[0].name).to.equal('Harbour shop');
    expect(saved.body.objectives.map((o: { name: string; target: number }) => [o.name, o.target])).to.deep.equal([
      ['Shop availability', 99.9],
    ]);

    // Subscribers: add two, remove one.
    for (const address of ['visitor@harbour.example', 'leaver@harbour.example']) {
      await page.getByLabel('E-mail address').fill(address);
      await page.getByRole('button', { name: 'Add subscriber' }).click();
      await page.getByRole('list', { name: 'Subscribers' }).getByText(address).waitFor();
    }
    await page.getByRole('button', { name: 'Remove leaver@harbour.example' }).click();
    await page.getByRole('list', { name: 'Subscribers' }).getByText('leaver@harbour.example').waitFor({ state: 'detached' });
    await page.getByRole('list', { name: 'Subscribers' }).getByText('visitor@harbour.example').waitFor();

    // A page incident, an update, its resolution.
    await page.getByLabel('Incident title').fill('Slow checkout');
    await page.getByLabel('Message to visitors').fill('We are looking into slow payments.');
    await page.getByRole('checkbox', { name: 'Harbour shop' }).check();
    await page.getByRole('button', { name: 'Post incident' }).click();
    const incidents = page.getByRole('list', { name: 'Page incidents' });
    await incidents.getByRole('heading', { name: 'Slow checkout' }).waitFor();
    await page.locator('.sp-preview').getByText('Slow checkout').waitFor();
    await incidents.getByLabel('Status').selectOption('identified');
    await incidents.getByLabel('Update message').fill('A payment provider is slow; we switched to the backup.');
    await incidents.getByRole('button', { name: 'Post update' }).click();
    await page.getByRole('list', { name: 'Updates of Slow checkout' }).getByText('we switched to the backup').waitFor();
    await axe(page, 'editor');
    await incidents.getByRole('button', { name: 'Resolve' }).click();
    await page.getByRole('list', { name: 'Updates of Slow checkout' }).getByText('This incident has been resolved.').waitFor();
    const told = (await apiAt(app.url, 'GET', `/api/status-pages/${pageId}/incidents`, { token })).body.items;
    expect(told).to.have.length(1);
    expect(told[0].resolvedAt).to.be.a('string');
    expect(told[0].updates.map((u: { status: string }) => u.status)).to.have.members(['investigating', 'identified', 'resolved']);
  });

  it('adds a white-label domain, shows the record to publish, verifies it against the DNS server and activates it', async () => {
    await page.getByRole('link', { name: 'Organization' }).click();
    await page.getByRole('link', { name: 'Custom domains' }).click();
    await page.getByRole('heading', { name: 'Custom domains' }).waitFor();
    await page.getByLabel('Hostname').fill(HOSTNAME);
    await page.getByLabel('Serves').selectOption('whiteLabel');
    await page.getByRole('button', { name: 'Add domain' }).click();
    const record = page.locator('.sp-value').filter({ hasText: /^mv-/ });
    await record.waitFor();
    // Verify before the record is published: the console says what is missing and where.
    await page.getByRole('button', { name: `Verify ${HOSTNAME}` }).click();
    await page.getByText(/^Not verified: no TXT record is published there yet/).waitFor();
    await axe(page, 'domains');
    // The customer publishes the record the console shows.
    const name = await page
      .locator('.sp-value')
      .filter({ hasText: /^_monitoring-verify\./ })
      .textContent();
    expect(name).to.equal(`_monitoring-verify.${HOSTNAME}`);
    (await testDnsServer()).set(name!, { TXT: [(await record.textContent())!] });
    await page.getByRole('button', { name: `Verify ${HOSTNAME}` }).click();
    await page.getByText(/^Verified: the record was found/).waitFor();
    await page.getByRole('button', { name: `Activate ${HOSTNAME}` }).click();
    await page.getByText(`Active: requests for ${HOSTNAME} are now served as your organization.`).waitFor();
    await page.getByText('Active: requests for it are served').waitFor();
  });

  it("sets the organization's look, and on its white-label domain the console wears it and nothing of the platform's name", async () => {
    await page.getByRole('link', { name: 'Organization' }).click();
    await page.getByRole('link', { name: 'Branding' }).click();
    await page.getByLabel('Organization name').fill('Harbour Ops');
    await page.getByLabel(/^Accent colour/).fill('#0A7D5A');
    await page.getByLabel(/^Logo/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO_PNG });
    await page.getByRole('img', { name: 'The logo as it will be shown' }).waitFor();
    await page.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Saved.').waitFor();
    expect(await page.getByLabel(/^Accent colour/).inputValue()).to.equal('#0a7d5a');
    await axe(page, 'branding');
    // The platform's own host keeps the platform's look.
    expect(await page.locator('.brand').textContent()).to.equal('Monitoring');

    // Through the customer's name, under the console's CSP (no bypass).
    const branded = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const cspErrors: string[] = [];
    const visitor = await branded.newPage();
    visitor.on('console', (m) => m.text().includes('Content Security Policy') && cspErrors.push(m.text()));
    const origin = `http://${HOSTNAME}:${new URL(app.url).port}`;
    await visitor.goto(`${origin}/app/sign-in`);
    await visitor.getByRole('heading', { name: 'Sign in' }).waitFor();
    await visitor.getByText('Harbour Ops').waitFor();
    expect(await visitor.title()).to.equal('Harbour Ops console');
    expect(await visitor.locator('body').innerText()).not.to.match(/monitoring/i);
    await shot(visitor, 'white-label-sign-in');
    await visitor.getByLabel('Email').fill(email);
    await visitor.getByLabel('Password').fill(PASSWORD);
    await visitor.getByRole('button', { name: 'Sign in' }).click();
    await visitor.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await visitor.locator('.brand').textContent()).to.equal('Harbour Ops');
    expect(await visitor.locator('.brand img').getAttribute('src')).to.match(/^data:image\/png;base64,/);
    expect(await visitor.title()).to.equal('Harbour Ops console');
    expect(await visitor.locator('body').innerText()).not.to.match(/monitoring/i);
    // Evaluated in the page, as text: the test's TypeScript has no DOM types.
    const button = await visitor.evaluate(
      `getComputedStyle([...document.querySelectorAll('button')].find((b) => b.textContent === 'Sign out')).borderColor`,
    );
    expect(button).to.equal('rgb(10, 125, 90)');
    expect(cspErrors).to.deep.equal([]);
    await shot(visitor, 'white-label-overview');
    await branded.close();
  });

  it('has no serious or critical axe violation on its screens at 375 px in the dark scheme', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, colorScheme: 'dark', bypassCSP: true });
    await phone.addCookies(await context.cookies());
    const p = await phone.newPage();
    for (const [route, heading] of [
      ['/status-pages', 'Status pages'],
      [`/status-pages/${pageId}`, 'Harbour status'],
      ['/custom-domains', 'Custom domains'],
      ['/organization/branding', 'Branding'],
    ] as const) {
      await p.goto(`${app.url}/app${route}`);
      await p.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await p.waitForLoadState('networkidle');
      await axe(p, `phone${route.replaceAll('/', '-').replace(pageId, 'editor')}`);
    }
    await phone.close();
    expect(violations).to.deep.equal([]);
  });
});
