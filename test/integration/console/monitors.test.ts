import { expect } from 'chai';
import fs from 'node:fs';
import net from 'node:net';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';
import { namedSteps } from '../../support/wait-for';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');
const PASSWORD = 'a long passphrase';

/**
 * The monitor forms in real Chromium, through the UI: a TCP and a DNS monitor added against
 * loopback peers (the test DNS server answers the name) and checked, the DNS and IMAP / POP3 forms
 * as their descriptors draw them (an IMAP / POP3 monitor added in a bare tcp check), the API's refusal of a bad
 * port shown at the field, a website edited, a change request filed by a customer-bound user of a
 * managed monitor and approved by the organization; axe on each screen at 1,100 px light and 375 px dark.
 */
describe('console: monitors of every kind, edits and change requests', function () {
  this.timeout(120_000);
  let app: RunningApplication;
  let browser: Browser;
  let admin: BrowserContext;
  let token = '';
  let customerId = 0;
  // Reads what it is sent: a socket that leaves the client's bytes unread never sees the client's end,
  // so a check that wrote (the POP3 monitor's TLS hello below) would hold the peer's close forever.
  const tcpPeer = net.createServer((socket) => socket.resume().end());
  const site = http.createServer((_req, res) => res.end('ok'));
  /**
   * Answers ok. While `held` is set, its first request waits for `held.release` and answers 500,
   * and the next one answers ok after `held.lagMs` (so the first's result is recorded well before).
   */
  let held: { arrived: () => void; release: Promise<void>; lagMs: number; first: boolean } | null = null;
  const slowSite = http.createServer((_req, res) => {
    const hold = held;
    if (!hold) return void res.end('ok');
    if (hold.first) {
      hold.first = false;
      hold.arrived();
      return void hold.release.then(() => {
        res.statusCode = 500;
        res.end('held');
      });
    }
    held = null;
    setTimeout(() => res.end('ok'), hold.lagMs);
  });
  const call = (method: string, url: string, body?: unknown, as = token) => apiAt(app.url, method, url, { token: as, body });
  const port = (server: net.Server) => (server.address() as AddressInfo).port;

  /** A browser context signed in as `email` through the sign-in screen. */
  const signedIn = async (email: string, options: Parameters<Browser['newContext']>[0] = {}) => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, bypassCSP: true, ...options });
    const page = await context.newPage();
    await page.goto(`${app.url}/app/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.close();
    return context;
  };
  const adminEmail = uniqueEmail('monitors');

  before(async () => {
    await new Promise<void>((resolve) => tcpPeer.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => slowSite.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
    const signUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Grace Hopper', email: adminEmail, password: PASSWORD, organizationName: 'Monitors' },
    });
    token = signUp.body.token as string;
    customerId = (await call('POST', '/api/customers', { name: 'Harbour Co', email: 'ops@harbour.example' })).body.customer.id;
    admin = await signedIn(adminEmail);
  });
  after(async () => {
    const closed = (server: net.Server) => (server.listening ? new Promise((resolve) => server.close(resolve)) : Promise.resolve());
    await namedSteps({
      'the browser to close': async () => browser?.close(),
      'the service to stop': async () => app?.stop(),
      'the TCP peer to close': () => closed(tcpPeer),
      'the site to close': () => closed(site),
      'the slow site to close': () => closed(slowSite),
    });
  });

  /** axe at 1,100 px light, then at 375 px dark in `dark` (a signed-in context), on the same path. */
  const axeBoth = async (page: Page, dark: BrowserContext, label: string, ready: (p: Page) => Promise<void>) => {
    expect(await seriousViolations(page), `${label} light`).to.deep.equal([]);
    await page.screenshot({ path: path.join(SHOTS, `monitors-${label}.png`), fullPage: true });
    const narrow = await dark.newPage();
    await narrow.goto(page.url());
    await ready(narrow);
    expect(await seriousViolations(narrow), `${label} dark`).to.deep.equal([]);
    await narrow.screenshot({ path: path.join(SHOTS, `monitors-${label}-375-dark.png`), fullPage: true });
    await narrow.close();
  };

  it('adds a TCP and a DNS monitor that check up, and shows the API refusal of a bad port at the field', async () => {
    const dark = await signedIn(adminEmail, { viewport: { width: 375, height: 800 }, colorScheme: 'dark' });
    const page = await admin.newPage();
    await page.goto(`${app.url}/app/monitors/new`);
    await page.getByRole('heading', { name: 'Add a website monitor' }).waitFor();
    await page.getByRole('radio', { name: /^TCP port/ }).check();
    await page.getByRole('heading', { name: 'Add a TCP port monitor' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Harbour port');
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await page.getByLabel('Port', { exact: true }).fill('70000');
    await page.getByRole('button', { name: 'Add monitor' }).click();
    const portError = page.locator('#monitor-port-error');
    await portError.waitFor();
    expect(await portError.textContent()).to.match(/65535/);
    expect(await page.getByLabel('Port', { exact: true }).getAttribute('aria-invalid')).to.equal('true');
    await axeBoth(page, dark, 'new-tcp', async (p) => {
      await p.getByRole('heading', { name: 'Add a website monitor' }).waitFor();
    });

    await page.getByLabel('Port', { exact: true }).fill(String(port(tcpPeer)));
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await page.getByRole('heading', { name: 'Harbour port' }).waitFor();
    await page.getByText(`TCP port · 127.0.0.1:${port(tcpPeer)}`).waitFor();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText(/^Result: up from local/).waitFor();
    await page.getByText('No maintenance window covers it.').waitFor();
    // The answer joins the history once, though the first result's live event read the history again.
    const history = await page.getByRole('list', { name: 'Check results, newest first' }).getByRole('listitem').allTextContents();
    expect(history).to.have.length(new Set(history).size);
    await axeBoth(page, dark, 'tcp-page', async (p) => {
      await p.getByRole('heading', { name: 'Harbour port' }).waitFor();
      await p.getByText('No maintenance window covers it.').waitFor();
    });

    await page.goto(`${app.url}/app/monitors/new?kind=dns`);
    await page.getByRole('heading', { name: 'Add a DNS monitor' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Harbour DNS');
    await page.getByLabel('DNS name', { exact: true }).fill('www.monitor-fixture.com');
    await page.getByLabel('Record type').selectOption('A');
    await page.getByLabel('Expected answers').fill('93.184.216.34');
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await page.getByRole('heading', { name: 'Harbour DNS' }).waitFor();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText(/^Result: up from local/).waitFor();
    const settings = page.locator('dl.settings');
    await settings.getByText('93.184.216.34').waitFor();
    const monitors = (await call('GET', '/api/monitors/dns')).body.items;
    expect(monitors.map((m: any) => [m.name, m.hostname, m.recordType, m.expectedValues])).to.deep.equal([
      ['Harbour DNS', 'www.monitor-fixture.com', 'A', ['93.184.216.34']],
    ]);
    await dark.close();
    await page.close();
  });

  it("draws a kind's form from its descriptor: DNS asks for a name, IMAP / POP3 sends its first protocol and hides TLS and login in a tcp check, then is edited", async () => {
    const dark = await signedIn(adminEmail, { viewport: { width: 375, height: 800 }, colorScheme: 'dark' });
    const page = await admin.newPage();
    await page.goto(`${app.url}/app/monitors/new?kind=dns`);
    await page.getByRole('heading', { name: 'Add a DNS monitor' }).waitFor();
    expect(await page.getByLabel('DNS name', { exact: true }).getAttribute('placeholder')).to.equal('example.com');
    expect(await page.getByLabel('Record type').inputValue()).to.equal('A');
    await axeBoth(page, dark, 'new-dns', async (p) => {
      await p.getByRole('heading', { name: 'Add a DNS monitor' }).waitFor();
    });

    await page.goto(`${app.url}/app/monitors/new?kind=imap-pop`);
    await page.getByRole('heading', { name: 'Add an IMAP / POP3 monitor' }).waitFor();
    expect(await page.getByLabel('Protocol').inputValue()).to.equal('imap');
    expect(await page.getByLabel('TLS').inputValue()).to.equal('implicit');
    await page.getByLabel('Login user').waitFor();
    await axeBoth(page, dark, 'new-imap-pop', async (p) => {
      await p.getByRole('heading', { name: 'Add an IMAP / POP3 monitor' }).waitFor();
    });
    await page.getByLabel('Name', { exact: true }).fill('Harbour mailbox');
    await page.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await page.getByLabel('Check', { exact: true }).selectOption('tcp');
    expect(await page.getByLabel('TLS').count()).to.equal(0);
    expect(await page.getByLabel('Login user').count()).to.equal(0);
    await page.getByLabel('Port', { exact: true }).fill(String(port(tcpPeer)));
    await page.getByRole('button', { name: 'Add monitor' }).click();
    await page.getByRole('heading', { name: 'Harbour mailbox' }).waitFor();
    const monitors = (await call('GET', '/api/monitors/imap-pop')).body.items;
    expect(monitors.map((m: any) => [m.name, m.hostname, m.port, m.protocol, m.checkMode])).to.deep.equal([
      ['Harbour mailbox', '127.0.0.1', port(tcpPeer), 'imap', 'tcp'],
    ]);

    // Edited: a tcp check stores no TLS mode; back in protocol mode the form shows the kind's default.
    await page.goto(`${app.url}/app/monitors/imap-pop/${monitors[0].publicId}/edit`);
    await page.getByRole('heading', { name: 'Edit Harbour mailbox' }).waitFor();
    expect(await page.getByLabel('Check', { exact: true }).inputValue()).to.equal('tcp');
    await page.getByLabel('Check', { exact: true }).selectOption('protocol');
    expect(await page.getByLabel('TLS').inputValue()).to.equal('implicit');
    await page.getByLabel('Protocol').selectOption('pop3');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Harbour mailbox', exact: true }).waitFor();
    const edited = (await call('GET', `/api/monitors/imap-pop/${monitors[0].publicId}`)).body;
    expect([edited.protocol, edited.checkMode, edited.port]).to.deep.equal(['pop3', 'protocol', port(tcpPeer)]);
    // The peer closes without a TLS handshake: down, told as such.
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText(/^Result: down from local/).waitFor();
    await dark.close();
    await page.close();
  });

  it('shows the answer to its Check now, not a result recorded meanwhile by a check that was running at the click', async () => {
    const created = await call('POST', '/api/websites', { customerId, name: 'Harbour slow', url: `http://127.0.0.1:${port(slowSite)}/` });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = created.body.publicId as string;
    const page = await admin.newPage();
    await page.goto(`${app.url}/app/monitors/website/${id}`);
    await page.getByRole('heading', { name: 'Harbour slow' }).waitFor();
    // A check runs before the click and is still running at it: it will answer 500 (down), once
    // released, and be recorded seconds before the check the click asked for (4 s slow) ends.
    let release = () => {};
    const arrived = new Promise<void>((resolve) => {
      held = { arrived: resolve, release: new Promise<void>((r) => (release = r)), lagMs: 4_000, first: true };
    });
    expect((await call('POST', `/api/websites/${id}/trigger-check`)).status).to.equal(202);
    await arrived;
    const answered = page.waitForResponse((r) => r.url().endsWith('/trigger-check'));
    await page.getByRole('button', { name: 'Check now' }).click();
    const { requestedAt } = (await (await answered).json()) as { requestedAt: string };
    release();
    await page.getByText(/^Result: up from local/).waitFor();
    // The running check's result came first, newer than anything the page showed, and was not taken for the answer.
    const history = (await call('GET', `/api/websites/${id}/check-history`)).body.items as { checkedAt: string; status: string }[];
    const before = history.filter((r) => Date.parse(r.checkedAt) < Date.parse(requestedAt));
    const after = history.filter((r) => Date.parse(r.checkedAt) >= Date.parse(requestedAt));
    expect(before.map((r) => r.status)).to.include('down');
    expect(after.map((r) => r.status)).to.include('up');
    await page.close();
  });

  it('shows the maintenance windows covering a website, edits it and shows the change on its page', async () => {
    const created = await call('POST', '/api/websites', { customerId, name: 'Harbour site', url: `http://127.0.0.1:${port(site)}/` });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const day = 86_400_000;
    const window = await call('POST', '/api/maintenance-windows', {
      title: 'Sunday patching',
      startTime: new Date(Date.now() + day).toISOString(),
      endTime: new Date(Date.now() + day + 3_600_000).toISOString(),
      targets: [{ type: 'monitor', id: created.body.publicId }],
    });
    expect(window.status, JSON.stringify(window.body)).to.equal(201);
    const page = await admin.newPage();
    await page.goto(`${app.url}/app/monitors/website/${created.body.publicId}`);
    const windows = page.getByRole('list', { name: 'Maintenance windows' });
    await windows.getByText('Sunday patching').waitFor();
    await windows.getByText(/^Next: /).waitFor();
    await page.getByRole('link', { name: 'Edit settings' }).click();
    await page.getByRole('heading', { name: 'Edit Harbour site' }).waitFor();
    const dark = await signedIn(adminEmail, { viewport: { width: 375, height: 800 }, colorScheme: 'dark' });
    await axeBoth(page, dark, 'edit-website', async (p) => {
      await p.getByRole('heading', { name: 'Edit Harbour site' }).waitFor();
    });
    await dark.close();
    // The rules answer a code (no field issue) for an interval out of range: it still shows at its field.
    await page.getByLabel('Check every (minutes)').fill('0');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('#monitor-checkInterval-error').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Harbour shop');
    await page.getByLabel('Check every (minutes)').fill('10');
    await page.getByLabel('Keyword', { exact: true }).fill('ok');
    await page.getByLabel('Check the keyword').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Harbour shop' }).waitFor();
    await page.getByText(/^Every 10 min from local/).waitFor();
    const stored = (await call('GET', `/api/websites/${created.body.publicId}`)).body;
    expect(stored).to.include({ name: 'Harbour shop', checkInterval: 10, keyword: 'ok', checkKeywordEnabled: true });
    await page.close();
  });

  it('files a change request as a customer-bound user and approves it as the organization', async () => {
    const created = await call('POST', '/api/websites', { customerId, name: 'Managed site', url: `http://127.0.0.1:${port(site)}/` });
    const email = uniqueEmail('customer');
    const user = await call('POST', '/api/users', { name: 'Customer editor', email, password: PASSWORD, role: 'editor', customerId });
    expect(user.status, JSON.stringify(user.body)).to.equal(201);
    const customerSide = await signedIn(email);
    const page = await customerSide.newPage();
    await page.goto(`${app.url}/app/monitors/website/${created.body.publicId}`);
    await page.getByRole('link', { name: 'Edit settings' }).click();
    await page.getByRole('heading', { name: 'Propose a change to Managed site' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Managed shop');
    await page.getByLabel('Note for the organization').fill('We renamed the shop');
    await page.getByRole('button', { name: 'Send for approval' }).click();
    await page.getByRole('heading', { name: 'Change sent for approval' }).waitFor();
    expect((await call('GET', `/api/websites/${created.body.publicId}`)).body.name).to.equal('Managed site');

    const desk = await admin.newPage();
    await desk.goto(`${app.url}/app/organization`);
    await desk.getByRole('link', { name: 'Change requests' }).click();
    const request = desk.getByRole('list', { name: 'Change requests' }).getByRole('listitem').filter({ hasText: 'Managed site' });
    await request.getByText('We renamed the shop').waitFor();
    await request.getByText('Managed shop').waitFor();
    const dark = await signedIn(adminEmail, { viewport: { width: 375, height: 800 }, colorScheme: 'dark' });
    await axeBoth(desk, dark, 'change-requests', async (p) => {
      await p.getByText('We renamed the shop').waitFor();
    });
    await dark.close();
    await request.getByLabel('Answer (optional)').fill('Done');
    await request.getByRole('button', { name: 'Approve' }).click();
    await desk.getByText('No request is waiting.').waitFor();
    await desk.getByRole('button', { name: 'All' }).click();
    await desk.getByRole('list', { name: 'Change requests' }).getByText('approved', { exact: true }).waitFor();

    await page.goto(`${app.url}/app/monitors/website/${created.body.publicId}`);
    await page.getByRole('heading', { name: 'Managed shop' }).waitFor();
    await customerSide.close();
    await desk.close();
  });
});
