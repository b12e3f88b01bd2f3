import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { GenerateDataExports } from '../../../src/application/data-export/generate-data-exports';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';
import { testCertificates } from '../../support/peers/certificates';
import { SmtpPeer } from '../../support/peers/smtp-peer';
import { testDnsServer } from '../../support/test-server';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');
const PASSWORD = 'a long passphrase';
const MAIL_HOST = 'mail.org-admin-console.com';
const XSS = '<img src=x onerror=alert(1)>';
/** A 1x1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SCREENS = ['audit-log', 'reports', 'export', 'billing', 'smtp', 'locations'] as const;

/**
 * The organization's administration screens in real Chromium, through the UI: a private location
 * and a key shown once, SMTP saved after a field error, a report run and its PDF downloaded, an
 * export requested and downloaded, the audit log telling it all and narrowed by a filter, billing
 * read; a read-only member sees no write control; axe on every screen.
 */
describe('console: organization administration', function () {
  this.timeout(120_000);
  let app: RunningApplication;
  let browser: Browser;
  let admin: BrowserContext;
  let page: Page;
  let adminToken = '';
  const smtp = new SmtpPeer(testCertificates().selfSigned, { starttls: false });
  const dialogs: string[] = [];
  const code = `office-${Date.now().toString(36)}`;

  /** Signs `email` in through the API and gives the browser context its session cookie. */
  const cookieFor = async (context: BrowserContext, email: string) => {
    const signedIn = await apiAt(app.url, 'POST', '/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
    expect(signedIn.status, JSON.stringify(signedIn.body)).to.equal(200);
    const [name, value] = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: app.url }]);
    return signedIn.body.token as string;
  };
  const open = async (where: string) => {
    await page.goto(`${app.url}/app${where}`);
  };

  before(async () => {
    await smtp.start();
    (await testDnsServer()).set(MAIL_HOST, { A: ['127.0.0.1'] });
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
    const email = uniqueEmail('org-admin');
    const signedUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Ada Admin', email, password: PASSWORD, organizationName: 'Admin screens' },
    });
    expect(signedUp.status, JSON.stringify(signedUp.body)).to.equal(200);
    const customer = await apiAt(app.url, 'POST', '/api/customers', {
      token: signedUp.body.token,
      body: { name: 'Billed customer', email: 'ops@billed.example' },
    });
    expect(customer.status, JSON.stringify(customer.body)).to.equal(200);
    admin = await browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
    adminToken = await cookieFor(admin, email);
    page = await admin.newPage();
    page.on('dialog', (dialog) => void dialog.dismiss().then(() => dialogs.push(dialog.message())));
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    await smtp.stop();
  });

  it('creates a private location and issues a key shown once, with the command to run a probe, then revokes it', async () => {
    await open('/organization');
    await page.getByRole('link', { name: 'Locations and probes' }).click();
    await page.getByRole('heading', { name: 'Locations and probes' }).waitFor();
    await page.getByLabel(/^Location code/).fill('Not A Code');
    await page.getByLabel('Location name').fill(XSS);
    await page.getByRole('button', { name: 'Add location' }).click();
    await page.locator('#location-code-error').waitFor();
    await page.getByLabel(/^Location code/).fill(code);
    await page.getByRole('button', { name: 'Add location' }).click();
    const location = page.getByRole('list', { name: 'Locations' }).getByRole('listitem').filter({ hasText: code }).first();
    await location.getByText('Unknown', { exact: true }).waitFor();
    await location.getByRole('heading', { name: new RegExp(`^${XSS.replace(/[()]/g, '\\$&')}`) }).waitFor();
    expect(await page.locator('main img').count(), 'a name is shown as text, never as markup').to.equal(0);

    await location.getByLabel('Key name (which probe or host)').fill('berlin-probe');
    await location.getByRole('button', { name: 'Issue key' }).click();
    const shown = location.getByRole('region', { name: 'New key berlin-probe' });
    await shown.getByText('This key is shown only now and will not be shown again.').waitFor();
    const secret = (await shown.locator('code').first().textContent())!;
    expect(secret).to.match(/^pk_[A-Za-z0-9_-]{20,}$/);
    expect(await shown.locator('pre').textContent()).to.contain(`PROBE_SERVER_URL=${app.url} PROBE_KEY=${secret}`);
    await shown.getByRole('button', { name: 'Copy key' }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'org-admin-locations-key.png'), fullPage: true });
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    await page.reload();
    const keys = page.getByRole('list', { name: `Probe keys of ${code}` });
    await keys.getByText('berlin-probe', { exact: true }).waitFor();
    expect(await page.content(), 'the secret is never shown again').not.to.contain(secret);
    await keys.getByRole('button', { name: 'Revoke key berlin-probe' }).click();
    await keys.getByRole('button', { name: 'Revoke for good' }).click();
    await keys.getByText('revoked', { exact: true }).waitFor();
    expect(dialogs, 'no script ran from a name').to.deep.equal([]);
  });

  it('saves the SMTP settings after showing the field the API refused, and never shows the password back', async () => {
    await open('/organization/smtp');
    await page.getByText("E-mail notifications go out through the platform's own server.").waitFor();
    await page.getByLabel('Host').fill(MAIL_HOST);
    await page.getByLabel('Security', { exact: true }).selectOption('none');
    await page.getByLabel(/^Port/).fill(String(smtp.port));
    await page.getByLabel('User name').fill('user');
    await page.getByLabel('Password').fill('secret');
    await page.getByLabel('From address').fill('not an address');
    await page.getByRole('button', { name: 'Save SMTP settings' }).click();
    await page.locator('#smtp-from-error').waitFor();
    expect(await page.locator('#smtp-host-error').count()).to.equal(0);
    await page.getByLabel('From address').fill('alerts@billed.example');
    await page.getByRole('button', { name: 'Save SMTP settings' }).click();
    await page
      .getByText('Set (never shown)')
      .waitFor({ timeout: 10_000 })
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\n${(await page.getByRole('alert').allTextContents()).join('\n')}`);
      });
    expect(await page.getByLabel(/^New password/).inputValue()).to.equal('');
    expect(await page.getByRole('main').innerText()).not.to.match(/\bsecret\b/);
    const stored = await apiAt(app.url, 'GET', '/api/organization/smtp', { token: adminToken });
    expect(stored.body).to.deep.include({ host: MAIL_HOST, port: smtp.port, username: 'user', passwordSet: true });
  });

  it('adds a report after a refused field, runs it now, downloads the PDF of the run and sets the report logo', async () => {
    await open('/organization/reports');
    await page.getByText('No reports yet.').waitFor();
    const form = page.getByRole('form', { name: 'Add a report' });
    await form.getByLabel('Report name').fill('Weekly uptime');
    await form.getByLabel('Time of day (HH:MM)').fill('25:00');
    await form.getByRole('button', { name: 'Add report' }).click();
    await page.locator('#report-new-time-error').waitFor();
    await form.getByLabel('Time of day (HH:MM)').fill('07:30');
    await form.getByRole('checkbox', { name: 'Billed customer' }).check();
    await form.getByRole('button', { name: 'Add report' }).click();
    const report = page.getByRole('list', { name: 'Report definitions' }).getByRole('listitem').filter({ hasText: 'Weekly uptime' });
    await report.getByText(/at 07:30 \(.+\), covering 1 customer\(s\)/).waitFor();
    await report.getByRole('button', { name: 'Run now' }).click();
    await report.getByText('Run completed.').waitFor({ timeout: 30_000 });
    const run = page.getByRole('list', { name: 'Report runs' }).getByRole('listitem').first();
    const [download] = await Promise.all([page.waitForEvent('download'), run.getByRole('link', { name: /^Download PDF/ }).click()]);
    const file = await download.path();
    expect(fs.readFileSync(file).subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    await page.getByLabel('Logo file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await page.getByText('The logo is set: the next reports carry it.').waitFor();
    await page.getByLabel('Logo file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await page.locator('#report-logo-error').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'org-admin-reports.png'), fullPage: true });
  });

  it('requests an export, follows it to ready and downloads the zip', async () => {
    await open('/organization/export');
    await page.getByText('No exports yet.').waitFor();
    await page.getByRole('button', { name: 'Request export' }).click();
    const item = page.getByRole('list', { name: 'Exports' }).getByRole('listitem').first();
    await item.getByText(/^Queued/).waitFor();
    // The export worker's round, as the service's job runner does it.
    const round = await app.container.get(GenerateDataExports).execute('console-test');
    expect(round.generated).to.have.length(1);
    await item.getByText('Ready to download').waitFor({ timeout: 10_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      item.getByRole('link', { name: 'Download the export (zip)' }).click(),
    ]);
    expect(
      fs
        .readFileSync(await download.path())
        .subarray(0, 2)
        .toString('latin1'),
    ).to.equal('PK');
  });

  it('shows in the audit log what was just done, who did it and from where, and narrows it with a filter', async () => {
    await open('/organization/audit-log');
    const entries = page.getByRole('list', { name: 'Audit entries' });
    const created = entries.getByRole('listitem').filter({ hasText: `created location ${code}` });
    await created.waitFor();
    expect(await created.textContent()).to.match(/from (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);
    await entries.getByRole('listitem').filter({ hasText: 'created report' }).first().waitFor();
    await page.getByLabel('Resource type').fill('location');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await entries.getByRole('listitem').filter({ hasText: 'report' }).first().waitFor({ state: 'detached' });
    const types = await entries.locator('.audit-entry > p:first-child .mono:first-of-type').allTextContents();
    expect(types.length).to.be.greaterThan(0);
    expect(new Set(types)).to.deep.equal(new Set(['location']));
    await created.waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'org-admin-audit-log.png'), fullPage: true });
  });

  it('shows billing: mandate, discount, each customer package and use, charges', async () => {
    await open('/organization/billing');
    await page.getByText('No payment mandate yet.').waitFor();
    await page.getByRole('rowheader', { name: 'Billed customer' }).waitFor();
    await page.getByText('No charges recorded.').waitFor();
    await page.getByLabel('Discount code').fill('NO-SUCH-CODE');
    await page.getByRole('button', { name: 'Apply code' }).click();
    await page.getByRole('form', { name: 'Discount' }).getByRole('alert').waitFor();
  });

  it('shows a read-only member no write control and not the admin-only places', async () => {
    const email = uniqueEmail('reader');
    const user = await apiAt(app.url, 'POST', '/api/users', {
      token: adminToken,
      body: { name: 'Reader', email, password: PASSWORD, role: 'readonly', customerId: null },
    });
    expect(user.status, JSON.stringify(user.body)).to.equal(201);
    const reader = await browser.newContext();
    await cookieFor(reader, email);
    const view = await reader.newPage();
    await view.goto(`${app.url}/app/organization`);
    const places = view.getByRole('list', { name: 'Settings' });
    await places.getByRole('link', { name: 'Reports' }).waitFor();
    for (const adminOnly of ['Audit log', 'Data export', 'Billing', 'SMTP']) {
      expect(await places.getByRole('link', { name: adminOnly }).count(), adminOnly).to.equal(0);
    }
    await places.getByRole('link', { name: 'Reports' }).click();
    await view
      .getByRole('list', { name: 'Report runs' })
      .getByRole('link', { name: /^Download PDF/ })
      .first()
      .waitFor();
    await view.getByRole('heading', { name: 'Weekly uptime' }).waitFor();
    await view.goto(`${app.url}/app/organization/locations`);
    await view
      .getByRole('list', { name: `Probe keys of ${code}` })
      .getByText('berlin-probe', { exact: true })
      .waitFor();
    for (const screen of ['reports', 'locations']) {
      await view.goto(`${app.url}/app/organization/${screen}`);
      await view.getByRole('heading', { level: 1 }).waitFor();
      await view.waitForLoadState('networkidle');
      const buttons = await view.getByRole('main').getByRole('button').allTextContents();
      expect(buttons, `${screen}: no write control`).to.deep.equal([]);
      expect(await view.getByRole('main').locator('form').count(), `${screen}: no form`).to.equal(0);
    }
    await reader.close();
  });

  it('has no serious or critical axe violation on any of these screens, wide and light or narrow and dark', async () => {
    const cookies = await admin.cookies();
    const violations: string[] = [];
    for (const [label, options] of [
      ['1100-light', { viewport: { width: 1100, height: 900 }, colorScheme: 'light' as const }],
      ['375-dark', { viewport: { width: 375, height: 740 }, colorScheme: 'dark' as const }],
    ] as const) {
      const context = await browser.newContext({ ...options, bypassCSP: true });
      await context.addCookies(cookies);
      const view = await context.newPage();
      for (const screen of SCREENS) {
        await view.goto(`${app.url}/app/organization/${screen}`);
        await view.getByRole('heading', { level: 1 }).waitFor();
        await view.waitForLoadState('networkidle');
        await view.locator('[role="status"]', { hasText: /^Loading/ }).waitFor({ state: 'detached' });
        for (const v of await seriousViolations(view)) violations.push(`${screen} ${label}: ${v}`);
        if (label === '375-dark') {
          const width = await view.evaluate<number>('document.documentElement.scrollWidth');
          expect(width, `${screen}: no sideways scrolling at 375 px`).to.be.at.most(375);
        }
        await view.screenshot({ path: path.join(SHOTS, `org-admin-${screen}-${label}.png`), fullPage: true });
      }
      await context.close();
    }
    expect(violations).to.deep.equal([]);
  });
});
