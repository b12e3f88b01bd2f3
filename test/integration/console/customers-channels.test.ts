import { expect } from 'chai';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';
import { aCustomField, aDomain, anIp } from '../../support/tenancy-fixtures';
import { aMember } from '../../support/identity-fixtures';
import { RdapPeer } from '../../support/peers/rdap-peer';
import { testDnsServer } from '../../support/test-server';
import { sweepWatchesOf } from './customers-channels.support';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');
const PASSWORD = 'a long passphrase';
const ZONES = [
  { zone: 'bl-a.test', name: 'Test BL', delistUrl: 'https://bl-a.test/delist' },
  // A delist address that is no web address: shown as text, never followed.
  { zone: 'bl-b.test', name: 'Odd BL', delistUrl: 'javascript:alert(1)' },
];

/**
 * A customer's page (package and quota, custom fields, a domain with its expiry, an IP with its
 * blocklists and delist links), notification channels (a webhook made through the UI, its test
 * button showing the loopback receiver's answer) and maintenance windows (a weekly window in
 * Europe/Berlin previewed on its own wall clock), each screen checked by axe at 1,100 px light and
 * 375 px dark.
 */
describe('console: a customer page, notification channels and maintenance windows', function () {
  this.timeout(120_000);
  const rdap = new RdapPeer();
  const answers: string[] = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      answers.push(req.headers['x-webhook-signature'] as string);
      res.writeHead(201, { 'content-type': 'text/plain' }).end('hello from the receiver <b>not bold</b>');
    });
  });
  const suffix = Date.now().toString(36);
  const domainName = `harbour-${suffix}.test`;
  let app: RunningApplication;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token = '';
  let signedUp: { body: Record<string, any> };
  let customer: Record<string, any>;
  const call = (method: string, url: string, body?: unknown) => apiAt(app.url, method, url, { token, body });

  /** axe at 1,100 px light (this page) and at 375 px dark (a second context with the same session), with screenshots. */
  async function checkScreen(at: string, name: string) {
    expect(await seriousViolations(page), `${name} at 1100 px`).to.deep.equal([]);
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, colorScheme: 'dark', bypassCSP: true });
    await phone.addCookies(await context.cookies());
    const small = await phone.newPage();
    await small.goto(`${app.url}/app${at}`);
    await small.getByRole('heading', { level: 1 }).waitFor();
    await small.waitForLoadState('networkidle');
    expect(await seriousViolations(small), `${name} at 375 px dark`).to.deep.equal([]);
    await small.screenshot({ path: path.join(SHOTS, `${name}-375-dark.png`), fullPage: true });
    await phone.close();
  }

  before(async () => {
    await rdap.start();
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    rdap.rdapDomains.set(domainName, { expiresAt: '2099-01-01T00:00:00Z', registrar: 'Example Registrar' });
    app = await aConsoleService({
      config: { DNSBL_ZONES: JSON.stringify(ZONES), RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl, WHOIS_SERVER: rdap.whoisServer },
    });
    browser = await launchConsoleBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
    const email = uniqueEmail('customers');
    const signUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Mary Jackson', email, password: PASSWORD, organizationName: 'Harbour Ops' },
    });
    signedUp = signUp;
    token = signUp.body.token as string;
    customer = (await call('POST', '/api/customers', { name: 'Harbour Co', email: 'ops@harbour.example' })).body.customer;
    const signIn = await apiAt(app.url, 'POST', '/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    context = await browser.newContext({ viewport: { width: 1100, height: 800 }, bypassCSP: true });
    await context.addCookies([{ name, value, url: app.url }]);
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await page?.screenshot({ path: path.join(SHOTS, 'customers-channels-failed.png'), fullPage: true });
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await rdap.stop();
  });

  it("shows a customer's package, custom fields, domain expiry and IP blocklists with delist links only for web addresses", async () => {
    const seats = await aCustomField(token, { name: 'Seats', fieldType: 'number' });
    await aCustomField(token, { name: 'Account manager', fieldType: 'text' });
    await aDomain(token, customer.publicId, { domainName });
    const ip = await anIp(token, customer.publicId);
    const reversed = (ip.ipAddress as string).split('.').reverse().join('.');
    const dns = await testDnsServer();
    for (const { zone } of ZONES) dns.set(`${reversed}.${zone}`, { A: ['127.0.0.2'], TXT: ['Listed for spam'] });
    expect(await sweepWatchesOf(app, customer.id as number)).to.deep.equal({ domains: 1, ips: 1 });

    await page.goto(`${app.url}/app/customers`);
    await page.getByRole('list', { name: 'Customers' }).getByRole('link', { name: 'Harbour Co' }).click();
    await page.getByRole('heading', { name: 'Harbour Co', level: 1 }).waitFor();
    const pack = page.getByRole('region', { name: 'Package and quota' });
    await pack.getByText(/^0 of \d+ \(0 %\)$/).waitFor();
    const domains = page.getByRole('list', { name: 'Domains' });
    await domains.getByText(domainName).waitFor();
    await domains.getByText(/^Expires .*\(in \d+ days\)$/).waitFor();
    await domains.getByText(/Example Registrar/).waitFor();
    const listings = page.getByRole('list', { name: `Blocklists listing ${ip.ipAddress}` });
    await page.getByText('Listed on 2 blocklists').waitFor();
    expect(await listings.getByRole('link', { name: 'Delist at Test BL' }).getAttribute('href')).to.equal('https://bl-a.test/delist');
    await listings.getByText('Delist: javascript:alert(1)').waitFor();
    expect(await listings.getByRole('link').count()).to.equal(1);

    // A value the API refuses is shown at its field, in its words; a good one is saved.
    await page.getByLabel('Seats').fill('many');
    await page.getByLabel('Account manager').fill('Dorothy Vaughan');
    await page.getByRole('button', { name: 'Save custom fields' }).click();
    const refusal = page.locator(`#custom-${seats.fieldKey}-error`);
    await refusal.waitFor();
    expect(await refusal.textContent()).to.match(/^Seats /);
    await page.getByLabel('Seats').fill('12');
    await page.getByRole('button', { name: 'Save custom fields' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await call('GET', `/api/customers/${customer.publicId}`)).body.customFields).to.deep.include({ [seats.fieldKey]: 12 });

    // A domain added and removed through the page.
    const second = `second-${suffix}.test`;
    await page.getByLabel('Domain name').fill(second);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await domains.getByText(second, { exact: true }).waitFor();
    await page.getByRole('button', { name: `Remove ${second}` }).click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await domains.getByText(second, { exact: true }).waitFor({ state: 'detached' });
    await checkScreen(`/customers/${customer.publicId}`, 'customer');
  });

  it("creates a webhook channel, shows its secret once and the receiver's answer to the test button", async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await page.goto(`${app.url}/app/organization`);
    await page.getByRole('link', { name: 'Notification channels' }).click();
    await page.getByRole('heading', { name: 'Notification channels', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Ops hook');
    await page.getByLabel('Webhook URL').fill('ftp://127.0.0.1/hook');
    await page.getByRole('button', { name: 'Add channel' }).click();
    const refusal = page.locator('#new-channel-target-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).to.match(/^config\.url/);
    await page.getByLabel('Webhook URL').fill(url);
    await page.getByRole('button', { name: 'Add channel' }).click();
    const secret = page.getByRole('region', { name: 'Signing secret' });
    await secret.getByText(/^whsec_/).waitFor();
    const channels = page.getByRole('list', { name: 'Channels' });
    await channels.getByText('Healthy').waitFor();
    await checkScreen('/channels', 'channels');

    await channels.getByRole('link', { name: 'Ops hook' }).click();
    await page.getByRole('heading', { name: 'Ops hook', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Send a test message' }).click();
    const result = page.getByRole('status', { name: 'Test result' });
    await result.getByText(/the receiver answered 201 in \d+ ms/).waitFor();
    // The receiver's body is text: its markup is shown, not drawn.
    expect(await result.locator('pre').textContent()).to.equal('hello from the receiver <b>not bold</b>');
    expect(answers).to.have.length(1);
    const deliveries = page.getByRole('list', { name: 'Deliveries' });
    await deliveries.getByText(/Try 1, .*answered 201/).waitFor();
    await page.getByText(/last delivered/).waitFor();
    await checkScreen(page.url().slice(`${app.url}/app`.length), 'channel');

    await page.getByLabel('Name').fill('Ops webhook');
    await page.getByRole('button', { name: 'Save channel' }).click();
    await page.getByRole('heading', { name: 'Ops webhook', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete Ops webhook' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('No channels yet: alerts reach no one.').waitFor();
  });

  it('previews a weekly window in its own time zone, shows refusals at their fields, saves and deletes it', async () => {
    await page.goto(`${app.url}/app/organization`);
    await page.getByRole('link', { name: 'Maintenance windows' }).click();
    await page.getByRole('heading', { name: 'Maintenance windows', level: 1 }).waitFor();
    await page.getByLabel('Title').fill('Sunday patching');
    await page.getByLabel('Time zone', { exact: true }).fill('Mars/Olympus');
    await page.getByLabel('Starts (in its time zone)').fill('2027-03-21T03:00');
    await page.getByLabel('Ends (in its time zone)').fill('2027-03-21T05:00');
    await page.getByLabel('Repeats').selectOption('weekly');
    // The preview asks the API as the fields change: its refusal of the zone is shown at the zone.
    const zoneRefusal = page.locator('#new-window-zone-error');
    await zoneRefusal.waitFor();
    expect(await zoneRefusal.textContent()).to.equal('Must be an IANA time zone such as Europe/Berlin');
    await page.getByLabel('Time zone', { exact: true }).fill('Europe/Berlin');
    const preview = page.getByRole('list', { name: 'Next occurrences' });
    // 28 March 2027 is the day Berlin moves to summer time: the window stays at 03:00 on the wall clock.
    await preview.getByText('Sun 2027-03-21 03:00 – 05:00').waitFor();
    await preview.getByText('Sun 2027-03-28 03:00 – 05:00').waitFor();
    await preview.getByText('Sun 2027-04-04 03:00 – 05:00').waitFor();

    await page.getByRole('button', { name: 'Schedule window' }).click();
    const targetsRefusal = page.locator('#new-window-targets-error');
    await targetsRefusal.waitFor();
    expect(await targetsRefusal.textContent()).to.match(/\S/);
    await page.getByLabel('Customer Harbour Co').check();
    await page.getByRole('button', { name: 'Schedule window' }).click();
    const windows = page.getByRole('list', { name: 'Maintenance windows' });
    await windows.getByText('Next: Sun 2027-03-21 03:00 – 05:00').waitFor();
    const saved = (await call('GET', '/api/maintenance-windows')).body.items[0];
    expect(saved).to.include({
      title: 'Sunday patching',
      timezone: 'Europe/Berlin',
      rrule: 'FREQ=WEEKLY',
      startTime: '2027-03-21T02:00:00.000Z',
    });
    expect(saved.targets).to.deep.equal([{ type: 'customer', id: customer.publicId }]);

    await windows.getByRole('button', { name: 'Show next occurrences' }).click();
    await page.getByRole('list', { name: 'Next occurrences of Sunday patching' }).getByText('Sun 2027-03-28 03:00 – 05:00').waitFor();
    await checkScreen('/maintenance', 'maintenance');

    await windows.getByRole('button', { name: 'Change Sunday patching' }).click();
    await windows.getByLabel('Title').fill('Sunday patch day');
    await windows.getByRole('button', { name: 'Save window' }).click();
    await windows.getByText('Sunday patch day', { exact: true }).waitFor();
    expect((await call('GET', `/api/maintenance-windows/${saved.id}`)).body).to.include({
      title: 'Sunday patch day',
      rrule: 'FREQ=WEEKLY',
    });
    await windows.getByRole('button', { name: 'Delete Sunday patch day' }).click();
    await windows.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('No maintenance windows.').waitFor();
    expect((await call('GET', `/api/maintenance-windows/${saved.id}`)).status).to.equal(404);
  });

  it('shows a read-only user the same screens without any write control', async () => {
    const channel = await call('POST', '/api/notification-channels', {
      name: 'Pager',
      type: 'webhook',
      config: { url: 'http://127.0.0.1:9/hook' },
    });
    expect(channel.status, JSON.stringify(channel.body)).to.equal(201);
    const reader = await aMember(signedUp.body as never, 'readonly');
    const readOnly = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const [name, value] = [reader.cookie.slice(0, reader.cookie.indexOf('=')), reader.cookie.slice(reader.cookie.indexOf('=') + 1)];
    await readOnly.addCookies([{ name, value, url: app.url }]);
    const view = await readOnly.newPage();
    view.setDefaultTimeout(10_000);
    await view.goto(`${app.url}/app/customers/${customer.publicId}`);
    await view.getByRole('list', { name: 'Domains' }).getByText(domainName).waitFor();
    await view.getByRole('region', { name: 'Custom fields' }).getByText('Dorothy Vaughan').waitFor();
    await view.getByText('Listed on 2 blocklists').waitFor();
    expect(await view.getByRole('button').allTextContents()).to.deep.equal(['Sign out']);
    await view.goto(`${app.url}/app/channels/${channel.body.publicId}`);
    await view.getByRole('heading', { name: 'Pager', level: 1 }).waitFor();
    await view.getByRole('heading', { name: 'Recent deliveries' }).waitFor();
    expect(await view.getByRole('button').allTextContents()).to.deep.equal(['Sign out']);
    await view.goto(`${app.url}/app/maintenance`);
    await view.getByText('No maintenance windows.').waitFor();
    expect(await view.getByRole('button').allTextContents()).to.deep.equal(['Sign out']);
    await readOnly.close();
  });
});
