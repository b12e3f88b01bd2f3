import { expect } from 'chai';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { uniqueEmail } from '../../support/builders';
import { aConsoleService, launchConsoleBrowser } from '../../support/console-browser';
import { consoleRoutePatterns, watchConsole } from '../../support/console-errors';
import { apiAt } from '../../support/http-client';
import { PASSWORD } from '../../support/identity-fixtures';
import { setIncidentManagement, setIncidentManagementSeenAt } from '../../support/im-fixtures';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');

type Role = 'admin' | 'editor' | 'responder' | 'readonly' | 'customer';

/**
 * Still open, each with its reason (issue 63, reported to the lead), so the probe is strict about
 * everything else: the admin's SMTP and single sign-on screens read settings the organization has
 * not made, and the API answers "none" with a documented 404 (smtpNotConfigured, ssoNotConfigured),
 * which Chromium logs. Quieting them needs an API answer that does not fail (a contract change). Each
 * must still occur: once one is fixed, the probe fails until it is taken off this list.
 */
const STILL_OPEN = ['/organization/smtp', '/organization/sso'].map((screen) => ({
  screen,
  matches: (line: string) => /^admin \(IM o(n|ff)\) /.test(line) && line.includes(` ${screen}: `) && / 404[: ]/.test(line),
}));

/**
 * The probe of issue 63: every screen of the console's route table, for every role (organization
 * admin, editor, responder, read-only, a customer-bound editor), with incident management off and
 * on, in real Chromium under the console's Content-Security-Policy. Each screen is loaded afresh
 * and left when its requests have settled; the test fails naming, per screen, every
 * console error or warning, every uncaught page error and every request that failed or was answered
 * 400 or above. The signed-out pages (sign-in, sign-up, the public ones) are walked the same way.
 */
describe('console: no error in the browser console on any screen, for any role, IM off and on', function () {
  this.timeout(600_000);
  let app: RunningApplication;
  let browser: Browser;
  let organizationId: number;
  const cookies = new Map<Role, string>();
  let adminEmail: string;
  const ids: Record<string, string> = {};
  const target = http.createServer((_req, res) => res.end('ok'));

  const call = async (token: string, method: string, route: string, body?: unknown) => {
    const response = await apiAt(app.url, method, route, { token, ...(body === undefined ? {} : { body }) });
    if (response.status >= 300) throw new Error(`setup ${method} ${route}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const signedIn = async (email: string) => {
    const response = await apiAt(app.url, 'POST', '/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
    if (response.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(response.body)}`);
    return response.body.token as string;
  };

  before(async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
    const email = uniqueEmail('probe');
    const signUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Dorothy Vaughan', email, password: PASSWORD, organizationName: 'Probe' },
    });
    const token = signUp.body.token as string;
    adminEmail = email;
    organizationId = signUp.body.user.organizationId as number;
    cookies.set('admin', token);
    const customer = (await call(token, 'POST', '/api/customers', { name: 'Harbour Co', email: 'ops@harbour.example' })).customer;
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    const site = await call(token, 'POST', '/api/websites', { customerId: customer.id, name: 'Harbour shop', url });
    ids.monitor = `/monitors/website/${site.publicId}`;
    ids.customer = `/customers/${customer.publicId ?? customer.id}`;
    ids.incident = `/incidents/${(await call(token, 'POST', '/api/incidents', { monitorId: site.publicId, title: 'Harbour is slow' })).publicId}`;
    const objective = await call(token, 'POST', '/api/service-levels', {
      name: 'Shop availability',
      target: 99.9,
      window: 'rolling30d',
      subject: { type: 'website', websiteId: site.publicId },
    });
    ids.objective = `/service-levels/${objective.id ?? objective.publicId}/edit`;
    const statusPage = await call(token, 'POST', '/api/status-pages', {
      title: 'Harbour status',
      slug: `harbour-${Date.now()}`,
      customerId: customer.publicId,
      description: null,
      logo: null,
      brandColor: '#1f2937',
      groups: [],
      objectives: [],
      showResponseTimes: false,
      footer: null,
    });
    ids.statusPage = `/status-pages/${statusPage.publicId ?? statusPage.id}`;
    // An incident of incident management (its page is walked with IM on and off): declared while IM is on.
    await setIncidentManagementSeenAt(app.url, token, organizationId, true);
    ids.imIncident = `/on-call/incidents/${(await call(token, 'POST', '/api/im/incidents', { title: 'Pager storm' })).id}`;
    await setIncidentManagementSeenAt(app.url, token, organizationId, false);
    // The status page and the channel are the customer's, so the customer-bound user may open them too.
    const channel = await call(token, 'POST', '/api/notification-channels', {
      name: 'Pager',
      customerId: customer.publicId,
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook' },
    });
    ids.channel = `/channels/${channel.publicId ?? channel.id}`;
    const invitation = await call(token, 'POST', '/api/invitations', { email: uniqueEmail('invitee'), role: 'readonly' });
    ids.invitation = new URL(invitation.acceptUrl as string).pathname.slice('/app'.length);
    for (const [role, apiRole, customerId] of [
      ['editor', 'editor', null],
      ['responder', 'responder', null],
      ['readonly', 'readonly', null],
      ['customer', 'editor', customer.id],
    ] as const) {
      const member = uniqueEmail(role);
      await call(token, 'POST', '/api/users', { name: `${role} user`, email: member, password: PASSWORD, role: apiRole, customerId });
      cookies.set(role, await signedIn(member));
    }
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    await new Promise((resolve) => target.close(resolve));
  });

  /** A concrete address for every pattern of the route table (a test below checks none is missing). */
  const addressOf = (pattern: string): string =>
    ({
      '/monitors/:kind/:id': ids.monitor!,
      '/monitors/:kind/:id/edit': `${ids.monitor}/edit`,
      '/incidents/:id': ids.incident!,
      '/customers/:id': ids.customer!,
      '/on-call/:section': '/on-call/schedules',
      '/on-call/incidents/:id': ids.imIncident!,
      '/status-pages/:id': ids.statusPage!,
      '/channels/:id': ids.channel!,
      '/service-levels/:id/edit': ids.objective!,
      '/invitations/:token': ids.invitation!,
    })[pattern] ?? pattern;
  const ON_CALL_SECTIONS = ['/on-call/incidents', '/on-call/escalation', '/on-call/sources', '/on-call/teams'];

  /**
   * Loads each address afresh (signed in with the session token, or not) and lists what went wrong.
   * One tab loads them one after the other, each a whole page load as typed into the address bar:
   * a tab of its own per screen would cost Chromium a renderer process each.
   */
  const walk = async (label: string, sessionToken: string | null, addresses: readonly string[]): Promise<string[]> => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    if (sessionToken) await context.addCookies([{ name: 'wsm_session', value: sessionToken, url: app.url }]);
    const found: string[] = [];
    const page = await context.newPage();
    for (const address of addresses) {
      const started = Date.now();
      const watch = watchConsole(page, { fromNextLoad: true });
      await page.goto(`${app.url}/app${address}`);
      const drawn = await settled(page, watch.quiet);
      if (!drawn) found.push(`${label} ${address}: no heading drawn within ${DRAWN_MS / 1000} s`);
      // A walk signed in must see the screens, not the sign-in page (the marker is set by the host from the session cookie).
      const signedInNow = (await page.getByRole('button', { name: 'Sign out' }).count()) === 1;
      if (signedInNow !== (sessionToken !== null)) found.push(`${label} ${address}: ${signedInNow ? 'signed in' : 'not signed in'}`);
      const problems = watch.stop();
      for (const problem of problems) found.push(`${label} ${address}: ${problem}`);
      // PROBE_LOG=1: each screen as it is walked, its time and what it found (to follow a long run).
      if (process.env.PROBE_LOG) process.stderr.write(`${label} ${address} ${Date.now() - started} ms ${problems.join(' | ')}\n`);
    }
    await context.close();
    return found;
  };

  it('knows an address for every screen of the route table', () => {
    const patterns = consoleRoutePatterns();
    expect(patterns.length).to.be.greaterThan(30);
    for (const pattern of patterns) expect(addressOf(pattern), pattern).not.to.include(':');
  });

  it('shows the signed-out pages without an error: sign-in, sign-up, the public screens, /favicon.ico', async () => {
    const found = await walk('signed out', null, ['/sign-in', '/sign-up', '/agent/claim', ids.invitation!, '/']);
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await phone.newPage();
    await page.goto(`${app.url}/app/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'errors-375-sign-in.png'), fullPage: true });
    await phone.close();
    const icon = await fetch(`${app.url}/favicon.ico`);
    if (icon.status !== 200 || !/^image\/svg\+xml/.test(icon.headers.get('content-type') ?? '')) {
      found.push(`/favicon.ico: answered ${icon.status} ${icon.headers.get('content-type')}`);
    }
    expect(found).to.deep.equal([]);
  });

  it('keeps the signed-in marker in step with the session cookie; asks for no session it knows is not there', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    const asked: number[] = [];
    page.on('response', (r) => void (new URL(r.url()).pathname === '/api/auth/get-session' ? asked.push(r.status()) : undefined));
    const marker = async () => (await context.cookies()).find((c) => c.name === 'wsm_signed_in');
    // The session cookie alone (a session opened before the marker existed): the page's load sets the marker.
    const session = await signedIn(adminEmail);
    await context.addCookies([{ name: 'wsm_session', value: session, url: app.url }]);
    await page.goto(`${app.url}/app/`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await marker()).to.include({ value: '1', httpOnly: false, path: '/' });
    expect(asked).to.deep.equal([200]);
    // The session revoked while its cookie stays: asked once (401), marked ended, not asked again.
    expect((await apiAt(app.url, 'POST', '/api/auth/sign-out', { token: session })).status).to.equal(200);
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect((await marker())?.value).to.equal('0');
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(asked).to.deep.equal([200, 401]);
    // Signing in through the page sets the marker again; signing out clears it and the session cookie.
    await page.getByLabel('Email').fill(adminEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(asked).to.deep.equal([200, 401, 200]);
    expect((await context.cookies()).filter((c) => c.name.startsWith('wsm_')).map((c) => c.name)).to.deep.equal([]);
    // A marker without a session cookie: cleared by the page's load, nothing asked.
    await context.addCookies([{ name: 'wsm_signed_in', value: '1', url: app.url }]);
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await marker()).to.equal(undefined);
    expect(asked).to.deep.equal([200, 401, 200]);
    await context.close();
  });

  for (const im of [false, true]) {
    it(`shows every screen to every role without an error, incident management ${im ? 'on' : 'off'}`, async () => {
      await setIncidentManagement(organizationId, im);
      const addresses = [...consoleRoutePatterns().map(addressOf), ...ON_CALL_SECTIONS];
      // The roles walk side by side, each in a browser context of its own (a screen mostly waits for its
      // requests to settle): the same screens and checks as one after the other, in a fraction of the time.
      const roles = ['admin', 'editor', 'responder', 'readonly', 'customer'] as const;
      const found = (
        await Promise.all(roles.map((role) => walk(`${role} (IM ${im ? 'on' : 'off'})`, cookies.get(role)!, addresses)))
      ).flat();
      if (!im) {
        const phone = await browser.newContext({ viewport: { width: 375, height: 800 } });
        await phone.addCookies([{ name: 'wsm_session', value: cookies.get('editor')!, url: app.url }]);
        const page = await phone.newPage();
        await page.goto(`${app.url}/app/on-call`);
        await page.getByText('Incident management is not switched on for this organization.').waitFor();
        await page.screenshot({ path: path.join(SHOTS, 'errors-375-on-call-im-off.png'), fullPage: true });
        await phone.close();
      }
      for (const open of STILL_OPEN) expect(found.some(open.matches), `still open: ${open.screen}`).to.equal(true);
      expect(found.filter((line) => !STILL_OPEN.some((open) => open.matches(line)))).to.deep.equal([]);
    });
  }
});

const DRAWN_MS = 8_000;

/** Waits for the screen to be drawn (its heading) and its requests to settle; answers whether it was drawn. */
async function settled(page: Page, quiet: () => Promise<void>): Promise<boolean> {
  const drawn = await page
    .locator('h1')
    .first()
    .waitFor({ timeout: DRAWN_MS })
    .then(() => true)
    .catch(() => false);
  await quiet();
  return drawn;
}
