import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';
import { OidcPeer } from '../../support/peers/oidc-peer';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');
const PASSWORD = 'a long passphrase';
const CLIENT = { client_id: 'wsm-console', client_secret: `secret-${randomBytes(8).toString('hex')}` };

/** A port free now on loopback: the service's public address must be known before it starts (the provider's redirect URI). */
async function aFreePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Single sign-on in real Chromium, through the UI: an organization admin configures the provider on
 * the Organization page's "Single sign-on" settings (the API's refusals at their field, the client
 * secret never shown back), then a new person signs in from the sign-in page's "Work e-mail" entry
 * through a real OpenID Connect provider on loopback (oidc-provider) and lands signed in on the
 * console; axe at 1,100 px light and 375 px dark.
 */
describe('console: single sign-on settings and the sign-in through the provider', function () {
  this.timeout(90_000);
  let app: RunningApplication;
  let browser: Browser;
  let peer: OidcPeer;
  let adminCookie = '';
  const adminEmail = uniqueEmail('sso-admin');
  const domain = `acme-${randomBytes(4).toString('hex')}.example`;

  // Building the console when its sources changed (once per run; `npm test` builds it first) can take a minute or more.
  before(async function () {
    this.timeout(240_000);
    const port = await aFreePort();
    const base = `http://127.0.0.1:${port}`;
    peer = await OidcPeer.start(`${base}/api/auth/sso/callback`, [CLIENT]);
    // The provider on loopback is reached through the service's target policy, which admits 127.0.0.0/8 here.
    app = await aConsoleService({ config: { PORT: String(port), PUBLIC_BASE_URL: base } });
    browser = await launchConsoleBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
    const signUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Ada Admin', email: adminEmail, password: PASSWORD, organizationName: 'Single sign-on' },
    });
    expect(signUp.status, JSON.stringify(signUp.body)).to.equal(200);
    const signedIn = await apiAt(app.url, 'POST', '/api/auth/sign-in/email', { body: { email: adminEmail, password: PASSWORD } });
    adminCookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(adminCookie).to.match(/^wsm_session=/);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    await peer?.stop();
  });

  const asAdmin = async (options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, bypassCSP: true, ...options });
    const [name, value] = adminCookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: app.url }]);
    return context;
  };
  const fieldError = (page: Page, id: string) => page.locator(`#${id}-error`);

  it('configures the provider from the Organization page: refusals at their field, the secret never shown back, and removes it', async () => {
    const context = await asAdmin();
    const page = await context.newPage();
    await page.goto(`${app.url}/app/organization`);
    await page.getByRole('link', { name: 'Single sign-on' }).click();
    await page.getByRole('heading', { name: 'Single sign-on', exact: true }).waitFor();
    await page.getByText('Not configured: everyone signs in with a password.').waitFor();
    await page.getByText('No secret is stored yet.').waitFor();

    // An issuer on plain http outside loopback is the API's ssoIssuerInvalid, shown at the issuer.
    await page.getByLabel('Issuer (https URL of the provider)').fill('http://login.acme.example');
    await page.getByLabel('Client ID').fill(CLIENT.client_id);
    await page.getByLabel('Client secret').fill(CLIENT.client_secret);
    await page.getByLabel('Allowed e-mail domains (one per line)').fill(domain);
    await page.getByLabel('Role of people signing in for the first time').selectOption('editor');
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await fieldError(page, 'sso-issuer').waitFor();
    expect(await fieldError(page, 'sso-issuer').textContent()).to.equal(
      'The identity provider address must be an https URL (http only on a loopback host)',
    );

    // SSO only without a break-glass admin: ssoBreakGlassRequired at that field.
    await page.getByLabel('Issuer (https URL of the provider)').fill(peer.issuer);
    await page.getByLabel('Group claim').fill('groups');
    await page.getByRole('button', { name: 'Add a group' }).click();
    await page.getByLabel('Group 1', { exact: true }).fill('sre');
    await page.getByLabel('Role of group 1').selectOption('editor');
    await page.getByLabel(/^SSO only/).check();
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await fieldError(page, 'sso-break-glass').getByText('break-glass admin').waitFor();

    await page.getByLabel('Break-glass admin (may still sign in with a password)').selectOption({ label: `Ada Admin (${adminEmail})` });
    await page.getByRole('button', { name: 'Save single sign-on' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByText(/^A secret is stored/).waitFor();
    expect(await page.getByLabel('Client secret').inputValue()).to.equal('');
    await page.getByText(`${app.url}/api/auth/sso/callback`).waitFor();

    // Read again: the settings as stored, the secret said to be set and never in the page.
    await page.reload();
    await page.getByText(/^Configured, last changed/).waitFor();
    expect(await page.getByLabel('Issuer (https URL of the provider)').inputValue()).to.equal(peer.issuer);
    expect(await page.getByLabel('Group 1', { exact: true }).inputValue()).to.equal('sre');
    expect(await page.getByLabel(/^SSO only/).isChecked()).to.equal(true);
    expect(await page.content()).not.to.contain(CLIENT.client_secret);
    const stored = await apiAt(app.url, 'GET', '/api/organization/sso', { cookie: adminCookie });
    expect(stored.body).to.include({ clientSecretSet: true, defaultRole: 'editor', ssoOnly: true });
    expect(stored.body.groupRoles).to.deep.equal({ sre: 'editor' });
    await page.screenshot({ path: path.join(SHOTS, 'sso-settings-1100-light.png'), fullPage: true });
    await context.close();
  });

  it('signs a new person in from the sign-in page through the provider, landing signed in on the console', async () => {
    const email = `grace@${domain}`;
    peer.signInAs(`sub-${randomBytes(4).toString('hex')}`, { email, email_verified: true, name: 'Grace Hopper', groups: ['sre'] });
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${app.url}/app/sign-in`);
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
    // The provider's authorization, its interaction, our callback, the console.
    await page.getByRole('heading', { name: 'Overview' }).waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).to.match(/^\/app\/?$/);
    // Cookies are per host, not port: the provider's own cookies on 127.0.0.1 are there too.
    const session = (await context.cookies(app.url)).find((cookie) => cookie.name === 'wsm_session');
    expect(session, 'the session cookie').not.to.equal(undefined);
    const me = await apiAt(app.url, 'GET', '/api/auth/get-session', { cookie: `${session!.name}=${session!.value}` });
    // The group claim's mapping gave the role.
    expect(me.body.user).to.include({ email, role: 'editor' });
    // An address outside the allowed domains is refused at the field, in the API's words.
    const other = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const refused = await other.newPage();
    await refused.goto(`${app.url}/app/sign-in`);
    await refused.getByLabel('Work e-mail').fill(`grace@elsewhere-${randomBytes(3).toString('hex')}.example`);
    await refused.getByRole('button', { name: 'Continue with single sign-on' }).click();
    await refused.getByRole('alert').first().waitFor();
    expect(new URL(refused.url()).origin).to.equal(app.url);
    await other.close();
    await context.close();
  });

  it('has no serious accessibility violation at 1,100 px light and 375 px dark, and removes the provider', async () => {
    const found: string[] = [];
    for (const [width, scheme] of [
      [1100, 'light'],
      [375, 'dark'],
    ] as const) {
      const context = await asAdmin({ viewport: { width, height: 800 }, colorScheme: scheme });
      const page = await context.newPage();
      await page.goto(`${app.url}/app/organization/sso`);
      await page.getByText(/^Configured, last changed/).waitFor();
      await page.waitForLoadState('networkidle');
      found.push(...(await seriousViolations(page)).map((v) => `${width} ${scheme}: ${v}`));
      await page.screenshot({ path: path.join(SHOTS, `sso-axe-${width}-${scheme}.png`), fullPage: true });
      if (width === 375) {
        await page.getByRole('button', { name: 'Remove single sign-on' }).click();
        await page.getByRole('button', { name: 'Remove single sign-on for good' }).click();
        await page.getByText('Not configured: everyone signs in with a password.').waitFor();
        const gone = await apiAt(app.url, 'GET', '/api/organization/sso', { cookie: adminCookie });
        expect(gone.status).to.equal(404);
      }
      await context.close();
    }
    expect(found).to.deep.equal([]);
  });
});
