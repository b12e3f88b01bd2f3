import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';
import { anOrganization, uniqueEmail } from '../../support/builders';
import { signIn } from '../../support/identity-fixtures';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');

/**
 * Invitations through the UI in real Chromium: an admin invites on the Users screen (the test
 * service has no SMTP server, so the link is shown once), a fresh browser opens the link, chooses a
 * name and password and lands signed in on the overview; the invitation leaves the pending list.
 */
describe('console: invitations', function () {
  this.timeout(120_000);
  let app: RunningApplication;
  let browser: Browser;

  before(async () => {
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  const context = async (cookie: string | null, options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> => {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 800 }, bypassCSP: true, ...options });
    if (cookie) {
      const [name, value] = cookie.split('=') as [string, string];
      await ctx.addCookies([{ name, value, url: app.url }]);
    }
    return ctx;
  };
  const checked = async (page: Page, name: string) => {
    expect(await seriousViolations(page), `${name} light`).to.deep.equal([]);
    await page.screenshot({ path: path.join(SHOTS, `invitations-${name}.png`), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page), `${name} dark`).to.deep.equal([]);
    await page.screenshot({ path: path.join(SHOTS, `invitations-${name}-375-dark.png`), fullPage: true });
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
  };

  it('an admin invites by e-mail; the invitee accepts through the link in a fresh browser and sees the overview', async () => {
    const org = await anOrganization('invite');
    const admin = await context((await signIn(org.email)).cookie);
    const page = await admin.newPage();
    await page.goto(`${app.url}/app/organization/users`);
    const email = uniqueEmail('invitee');
    const form = page.getByRole('form', { name: 'Invite by e-mail' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Role').selectOption('responder');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    const link = (await page.getByRole('region', { name: 'Invitation link' }).locator('pre').textContent())!.trim();
    expect(link).to.match(/\/app\/invitations\/[A-Za-z0-9_-]{43}$/);
    const pending = page.getByRole('list', { name: 'Pending invitations' });
    await pending.getByText(email).waitFor();
    await checked(page, 'users');

    // The same address again: the API's refusal, in its words, at the form.
    await form.getByLabel('Email').fill(email);
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await form.getByText('An invitation for this e-mail is already pending').waitFor();

    const invitee = await context(null);
    const accept = await invitee.newPage();
    await accept.goto(`${app.url}${new URL(link).pathname}`);
    await accept.getByRole('heading', { name: /^Join invite / }).waitFor();
    await accept.getByText(email).waitFor();
    await checked(accept, 'accept');
    await accept.getByLabel('Your name').fill('Grace Hopper');
    await accept.getByLabel(/Choose a password/).fill('a long passphrase');
    await accept.getByRole('button', { name: 'Join and sign in' }).click();
    await accept.getByRole('heading', { name: 'Overview' }).waitFor();

    // The link worked once; the invitation left the admin's list.
    const again = await invitee.newPage();
    await again.goto(`${app.url}${new URL(link).pathname}`);
    await again.getByText('Invitation not found, expired or already used').waitFor();
    await page.reload();
    await page.getByText('No pending invitations.').waitFor();
    await page.getByRole('list', { name: 'Users' }).getByText('Grace Hopper', { exact: true }).waitFor();
    await invitee.close();
    await admin.close();
  });
});
