import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';
import { anOrganization, type SignedUp } from '../../support/builders';
import { anAccessToken, anAnonymousAgent, aServiceAuthAgent, pollClaim } from '../../support/agent-fixtures';
import { CANONICAL_HOST } from '../../support/agent-http';
import { api, apiAt, rawAt } from '../../support/http-client';
import { anMcpClient, callOk, callRefused } from '../../support/mcp-client';
import { aMonitoredCustomer, PUBLIC_URL } from '../../support/monitoring-fixtures';
import { PASSWORD, aCustomerRow, aMember, signIn } from '../../support/identity-fixtures';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');

/**
 * The current code of a TOTP secret. The console service runs on the real clock (unlike the shared
 * test server, whose clock tests move forward: `totpCode` of identity-fixtures follows that one).
 */
const codeNow = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() });

/**
 * Accounts, people and agents in the console, through the UI in real Chromium: two-step enrolment
 * and a sign-in with a code, users and roles with the API's field errors, API tokens shown once,
 * an agent's claim approved and then disconnected; axe-core on each of these screens.
 */
describe('console: accounts, users, tokens and agents', function () {
  this.timeout(120_000);
  let app: RunningApplication;
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    fs.mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** A context signed in as the user behind `cookie` (`wsm_session=…`). */
  const signedIn = async (cookie: string, options: Parameters<Browser['newContext']>[0] = {}) => {
    const signed = await browser.newContext({ viewport: { width: 1100, height: 800 }, ...options });
    const [name, value] = cookie.split('=') as [string, string];
    await signed.addCookies([{ name, value, url: app.url }]);
    return signed;
  };
  const open = async (ctx: BrowserContext, consolePath: string): Promise<Page> => {
    const page = await ctx.newPage();
    await page.goto(`${app.url}/app${consolePath}`);
    return page;
  };

  /** axe at 1,100 px light and 375 px dark (0 serious or critical), with a screenshot of each. */
  const axeOn = async (cookie: string, consolePath: string, heading: string, label: string) => {
    const found: string[] = [];
    for (const [width, scheme] of [
      [1100, 'light'],
      [375, 'dark'],
    ] as const) {
      const ctx = await signedIn(cookie, { viewport: { width, height: 800 }, colorScheme: scheme, bypassCSP: true });
      const page = await open(ctx, consolePath);
      await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
      await page.waitForLoadState('networkidle');
      found.push(...(await seriousViolations(page)).map((v) => `${label} ${width} ${scheme}: ${v}`));
      await page.screenshot({ path: path.join(SHOTS, `access-${label}-${width}-${scheme}.png`), fullPage: true });
      await ctx.close();
    }
    return found;
  };

  it('enrols two-step verification, shows the recovery codes once, signs in again with a code, and turns it off', async () => {
    const org = await anOrganization('twostep');
    const page = await context.newPage();
    await page.goto(`${app.url}/app/sign-in`);
    await page.getByLabel('Email').fill(org.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();

    await page.getByRole('link', { name: 'Organization' }).click();
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.getByLabel('Your password').fill('not my password');
    await page.getByRole('button', { name: 'Start' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /password/i })
      .waitFor();
    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('img', { name: 'QR code of your two-step verification secret' }).waitFor();
    expect(await page.locator('svg.qr-code path').getAttribute('d')).to.match(/^M\d+ \d+h1v1h-1z/);
    await page.screenshot({ path: path.join(SHOTS, 'access-enrol.png'), fullPage: true });
    const secret = (await page.locator('code.totp-secret').textContent())!;
    expect(secret).to.match(/^[A-Z2-7]{16,}$/);
    expect(await scanQrCode(page)).to.match(new RegExp(`^otpauth://totp/.*[?&]secret=${secret}(&|$)`));
    await page.getByLabel('The six-digit code the app shows').fill(codeNow(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('region', { name: 'Recovery codes' });
    await codes.getByText('It will not be shown again.').waitFor();
    const recovery = (await codes.locator('pre').textContent())!.split('\n');
    expect(recovery).to.have.length(10);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByRole('region', { name: 'Recovery codes' }).count()).to.equal(0);
    await page.getByRole('heading', { name: 'Turn off two-step verification' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(org.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Verification code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid two-step verification code' }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'access-challenge.png'), fullPage: true });
    const violations = await seriousViolationsIn(page);
    await page.getByLabel('Verification code').fill(codeNow(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();

    // A recovery code works in place of the authenticator's code.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').fill(org.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Verification code').fill(recovery[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();

    const cookie = await signedInCookie(org.email, secret);
    violations.push(...(await axeOn(cookie, '/account', 'Your account', 'account')));
    expect(violations).to.deep.equal([]);

    // Turned off with the password: the next sign-in asks for no code.
    await page.goto(`${app.url}/app/account`);
    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('heading', { name: 'Turn on two-step verification' }).waitFor();
    const again = await apiAt(app.url, 'POST', '/api/auth/sign-in/email', { body: { email: org.email, password: PASSWORD } });
    expect(again.body).to.have.property('token');
    await page.close();
  });

  it('adds a user, showing the API’s field error first, changes their role and removes them', async () => {
    const org = await anOrganization('users');
    const { cookie } = await signIn(org.email);
    const ctx = await signedIn(cookie);
    const page = await open(ctx, '/organization/users');
    await page.getByRole('heading', { name: 'Users and roles' }).waitFor();
    const form = page.getByRole('form', { name: 'Add a user' });
    await form.getByLabel('Name').fill('Grace Hopper');
    await form.getByLabel('Email').fill('not an email');
    await form.getByLabel('First password').fill('a long passphrase');
    await form.getByLabel('Role').selectOption('responder');
    await form.getByRole('button', { name: 'Add user' }).click();
    const emailError = await page.locator('#user-email-error').textContent();
    expect(emailError).to.match(/email/i);
    await form.getByLabel('Email').fill(`grace-${Date.now()}@test.example`);
    await form.getByRole('button', { name: 'Add user' }).click();
    const line = page.getByRole('list', { name: 'Users' }).getByRole('listitem').filter({ hasText: 'Grace Hopper' });
    await line.getByText('Responder · Whole organization').waitFor();
    await line.getByLabel('Role of Grace Hopper', { exact: true }).selectOption('readonly');
    await line.getByRole('button', { name: 'Change role of Grace Hopper' }).click();
    await line.getByText('Read-only · Whole organization').waitFor();
    await line.getByRole('button', { name: 'Remove Grace Hopper' }).click();
    await line.getByRole('button', { name: 'Remove Grace Hopper for good' }).click();
    await line.waitFor({ state: 'detached' });
    await ctx.close();
    expect(await axeOn(cookie, '/organization/users', 'Users and roles', 'users')).to.deep.equal([]);
  });

  it('makes an API token whose secret is shown once, and revokes it', async () => {
    const org = await anOrganization('tokens');
    const { cookie } = await signIn(org.email);
    const ctx = await signedIn(cookie);
    const page = await open(ctx, '/organization/tokens');
    await page.getByText('No tokens yet.').waitFor();
    await page.getByLabel('Token name').fill('deploy script');
    await page.getByRole('button', { name: 'Make token' }).click();
    const shown = page.getByRole('region', { name: 'The token “deploy script”' });
    await shown.getByText('It will not be shown again.').waitFor();
    const secret = (await shown.locator('pre').textContent())!;
    expect(secret).to.match(/^wsm_/);
    const works = await apiAt(app.url, 'GET', '/api/websites', { token: secret });
    expect(works.status).to.equal(200);
    await shown.getByRole('button', { name: 'Copy' }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'access-token-once.png'), fullPage: true });

    await page.reload();
    const line = page.getByRole('list', { name: 'Tokens' }).getByRole('listitem').filter({ hasText: 'deploy script' });
    await line.waitFor();
    expect(await page.getByText(secret).count()).to.equal(0);
    await line.getByRole('button', { name: 'Revoke deploy script' }).click();
    await line.getByRole('button', { name: 'Revoke deploy script now' }).click();
    await page.getByText('No tokens yet.').waitFor();
    expect((await apiAt(app.url, 'GET', '/api/websites', { token: secret })).status).to.equal(401);
    await ctx.close();
    expect(await axeOn(cookie, '/organization/tokens', 'API tokens', 'tokens')).to.deep.equal([]);
  });

  it('makes a customer token for a user tied to a customer', async () => {
    const org = await anOrganization('custtokens');
    const customerId = await aCustomerRow(org.user.organizationId, 'Harbour');
    const member = await aMember(org, 'editor', customerId);
    const ctx = await signedIn(member.cookie);
    const page = await open(ctx, '/organization/tokens');
    await page.getByText('A customer token reaches only your customer.').waitFor();
    await page.getByLabel('Expires after (days)').fill('');
    await page.getByLabel('Token name').fill('status widget');
    await page.getByRole('button', { name: 'Make token' }).click();
    expect(await page.locator('#token-days-error').textContent()).to.not.equal('');
    await page.getByLabel('Expires after (days)').fill('30');
    await page.getByRole('button', { name: 'Make token' }).click();
    const secret = (await page.getByRole('region', { name: 'The token “status widget”' }).locator('pre').textContent())!;
    const made = await apiAt(app.url, 'GET', '/api/customer/tokens', { cookie: member.cookie });
    expect(made.body.items.map((t: { name: string; customerId: number }) => [t.name, t.customerId])).to.deep.equal([
      ['status widget', customerId],
    ]);
    expect((await apiAt(app.url, 'GET', '/api/websites', { token: secret })).status).to.equal(200);
    await ctx.close();
  });

  it('lets an anonymous MCP agent read only once a person has approved its claim in the console', async () => {
    const org: SignedUp = await anOrganization('mcp-claim');
    const customer = await aMonitoredCustomer(org.token);
    const site = await api('POST', '/api/websites', {
      token: org.token,
      body: { customerId: customer.id, url: PUBLIC_URL, name: 'Claimed shop' },
    });
    expect(site.status, JSON.stringify(site.body)).to.equal(201);
    const agent = await anAnonymousAgent();
    const before = await anMcpClient(await anAccessToken(agent.identity_assertion));
    await callRefused(before, 'find_monitors', {}, 403, 'agentTokenReadOnly');
    await before.close();

    const claimUrl = new URL(agent.claim_url as string);
    const visitor = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await visitor.newPage();
    await page.goto(`${app.url}/app${claimUrl.pathname}${claimUrl.search}`);
    await page.getByLabel('Email').fill(org.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/^Approved\./).waitFor();
    await visitor.close();

    const after = await anMcpClient(await anAccessToken(agent.identity_assertion));
    const found = await callOk(after, 'find_monitors', {});
    expect(found).to.include({ total: 1 });
    expect(found.items[0]).to.include({ publicId: site.body.publicId, name: 'Claimed shop' });
    await after.close();
  });

  it("approves an agent's claim at its link after signing in, then disconnects it", async () => {
    const org: SignedUp = await anOrganization('agents');
    const agent = await aServiceAuthAgent();
    const claimUrl = new URL(agent.claim_url as string);
    expect(claimUrl.pathname).to.equal('/agent/claim');
    const visitor = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await visitor.newPage();
    await page.goto(`${app.url}/app${claimUrl.pathname}${claimUrl.search}`);
    await page.getByRole('heading', { name: 'Approve an agent' }).waitFor();
    await page.getByLabel('Email').fill(org.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(agent.registration_id as string).waitFor();
    await page.getByText(`${org.email} in`).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'access-claim.png'), fullPage: true });
    const { cookie } = await signIn(org.email);
    const violations = await axeOn(cookie, `${claimUrl.pathname}${claimUrl.search}`, 'Approve an agent', 'claim');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/^Approved\./).waitFor();

    const polled = await pollClaim(agent.claim_token as string);
    expect(polled.status, JSON.stringify(polled.body)).to.equal(200);
    const token = polled.body.access_token as string;
    // Read through the console's service: each process caches credentials briefly, and the revocation
    // below drops the cache of the process that revokes.
    const reads = () => rawAt(app.url, 'GET', '/api/websites', { host: CANONICAL_HOST, authorization: `Bearer ${token}` });
    expect((await reads()).status).to.equal(200);

    await page.getByRole('link', { name: 'Connected agents' }).click();
    const line = page
      .getByRole('list', { name: 'Connected agents' })
      .getByRole('listitem')
      .filter({ hasText: agent.registration_id as string });
    await line.getByText(/api\.read/).waitFor();
    violations.push(...(await axeOn(cookie, '/organization/agents', 'Connected agents', 'agents')));
    await line.getByRole('button', { name: `Disconnect ${agent.registration_id as string}` }).click();
    await line.getByRole('button', { name: `Disconnect ${agent.registration_id as string} now` }).click();
    await page.getByText('No agent is connected.').waitFor();
    expect((await reads()).status).to.equal(401);
    await visitor.close();
    expect(violations).to.deep.equal([]);
  });

  /** What a scanner reads from the QR code on the page: the SVG drawn on a canvas, its pixels decoded by `qr/decode`. */
  async function scanQrCode(page: Page): Promise<string> {
    const dark = (await page.evaluate(`(async () => {
      const svg = new XMLSerializer().serializeToString(document.querySelector('svg.qr-code'));
      const image = new Image();
      image.src = 'data:image/svg+xml;base64,' + btoa(svg);
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 200;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0, 200, 200);
      const rgba = context.getImageData(0, 0, 200, 200).data;
      let dark = '';
      for (let i = 0; i < rgba.length; i += 4) dark += rgba[i] < 128 ? '1' : '0';
      return dark;
    })()`)) as string;
    const { default: decodeQR } = await import('qr/decode.js');
    const data = new Uint8Array(200 * 200 * 4).fill(255);
    for (let i = 0; i < dark.length; i++) if (dark[i] === '1') data.fill(0, i * 4, i * 4 + 3);
    return decodeQR({ width: 200, height: 200, data });
  }

  /** axe on the page as it is (its context keeps the CSP: so only the counts are compared elsewhere). */
  async function seriousViolationsIn(page: Page): Promise<string[]> {
    const ctx = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: 'dark', bypassCSP: true });
    await ctx.addCookies(await page.context().cookies());
    const copy = await ctx.newPage();
    await copy.goto(page.url());
    await copy.getByRole('heading', { name: 'Sign in' }).waitFor();
    const found = await seriousViolations(copy);
    await ctx.close();
    return found.map((v) => `sign-in 375 dark: ${v}`);
  }

  /** A session for a user with two-step verification on, through the API. */
  async function signedInCookie(email: string, secret: string): Promise<string> {
    const first = await apiAt(app.url, 'POST', '/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
    const challenge = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
    const second = await apiAt(app.url, 'POST', '/api/auth/two-factor/verify-totp', { body: { code: codeNow(secret) }, cookie: challenge });
    expect(second.status, JSON.stringify(second.body)).to.equal(200);
    return `wsm_session=${second.body.token as string}`;
  }
});
