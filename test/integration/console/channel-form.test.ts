import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { NOTIFIERS } from '../../../src/domain/notifications/notifiers';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');
const PASSWORD = 'a long passphrase';
const field = (type: string, name: string) => NOTIFIERS.find((n) => n.type === type)!.fields.find((f) => f.name === name)!;

/**
 * The channel form drawn from the generated catalogue: each kind's fields with the descriptor's label
 * and help (the input's description), a refusal of one field shown at that field, a chat kind's
 * optional prefix sent as null when empty, and a webhook's headers written as lines and read back.
 */
describe('console: the channel form, drawn from the notifier descriptors', function () {
  this.timeout(120_000);
  let app: RunningApplication;
  let browser: Browser;
  let page: Page;
  let token = '';
  const call = (method: string, url: string, body?: unknown) => apiAt(app.url, method, url, { token, body });
  /** The text of the element(s) an input names as its description. */
  const descriptionOf = (id: string) =>
    page.evaluate(`(document.getElementById(${JSON.stringify(id)}).getAttribute('aria-describedby') || '')
      .split(' ').filter(Boolean).map((d) => document.getElementById(d).textContent).join(' | ')`);

  before(async () => {
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
    const email = uniqueEmail('channel-form');
    const signUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Katherine Johnson', email, password: PASSWORD, organizationName: 'Form Ops' },
    });
    token = signUp.body.token as string;
    const signIn = await apiAt(app.url, 'POST', '/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, bypassCSP: true });
    await context.addCookies([{ name: cookie.slice(0, cookie.indexOf('=')), value: cookie.slice(cookie.indexOf('=') + 1), url: app.url }]);
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await page?.screenshot({ path: path.join(SHOTS, 'channel-form-failed.png'), fullPage: true });
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("labels and describes each kind's fields as its descriptor does, and shows a refused address at its field", async () => {
    await page.goto(`${app.url}/app/channels`);
    await page.getByRole('heading', { name: 'Notification channels', level: 1 }).waitFor();
    const kinds = await page.getByLabel('Kind').locator('option').allTextContents();
    expect(kinds).to.deep.equal(NOTIFIERS.map((n) => n.label));

    await page.getByLabel('Kind').selectOption('email');
    const recipients = page.getByLabel(`${field('email', 'recipients').label} (comma separated)`);
    expect(await recipients.getAttribute('id')).to.equal('new-channel-target');
    expect(await descriptionOf('new-channel-target')).to.equal(field('email', 'recipients').help);
    await page.getByLabel('Name').fill('Ops mail');
    await recipients.fill('ops@example.com, not an address');
    await page.getByRole('button', { name: 'Add channel' }).click();
    const refusal = page.locator('#new-channel-target-error');
    await refusal.waitFor();
    expect(await descriptionOf('new-channel-target')).to.equal(`${field('email', 'recipients').help} | ${await refusal.textContent()}`);
    await recipients.fill('ops@example.com, oncall@example.com');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page
      .getByRole('list', { name: 'Channels' })
      .getByText(/^Email · Organization/)
      .waitFor();
    const saved = (await call('GET', '/api/notification-channels')).body.items.find((c: { name: string }) => c.name === 'Ops mail');
    expect(saved.config).to.deep.equal({ recipients: ['ops@example.com', 'oncall@example.com'] });

    await page.getByLabel('Kind').selectOption('slack');
    const url = page.getByLabel(field('slack', 'url').label);
    expect(await url.getAttribute('autocomplete')).to.equal('off');
    expect(await descriptionOf('new-channel-target')).to.equal(field('slack', 'url').help);
    await page.getByLabel(`${field('slack', 'messagePrefix').label} (optional)`).waitFor();
    expect(await seriousViolations(page)).to.deep.equal([]);
    await page.screenshot({ path: path.join(SHOTS, 'channel-form-slack.png'), fullPage: true });
    await page.getByLabel('Name').fill('Ops Slack');
    await url.fill('https://hooks.slack.com/services/T/B/x');
    await page.getByRole('button', { name: 'Add channel' }).click();
    await page
      .getByRole('list', { name: 'Channels' })
      .getByText(/^Slack · Organization/)
      .waitFor();
    const slack = (await call('GET', '/api/notification-channels')).body.items.find((c: { name: string }) => c.name === 'Ops Slack');
    expect(slack.config).to.deep.equal({ url: 'https://hooks.slack.com/services/T/B/x', messagePrefix: null });
  });

  it("shows a webhook's headers as lines, places a refused header at the headers field and saves changed ones", async () => {
    const made = await call('POST', '/api/notification-channels', {
      name: 'Hook with headers',
      type: 'webhook',
      config: { url: 'https://hooks.example.com/in', headers: { 'X-Team': 'ops' } },
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    await page.goto(`${app.url}/app/channels/${made.body.publicId}`);
    await page.getByRole('heading', { name: 'Hook with headers', level: 1 }).waitFor();
    const headers = page.getByLabel(`${field('webhook', 'headers').label} (optional)`);
    expect(await headers.inputValue()).to.equal('X-Team: ops');
    await headers.fill('X-Team: ops\nContent-Type: text/plain');
    await page.getByRole('button', { name: 'Save channel' }).click();
    const refusal = page.locator('#edit-channel-headers-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).to.match(/config\.headers\.Content-Type: a header the service sets itself/);
    expect(await page.locator('#edit-channel-target-error').count()).to.equal(0);
    await page.screenshot({ path: path.join(SHOTS, 'channel-form-headers.png'), fullPage: true });
    expect(await seriousViolations(page), 'the refusal at 1,100 px').to.deep.equal([]);
    // The same refusal on a phone, dark: read as words, nothing cut off.
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, colorScheme: 'dark', bypassCSP: true });
    try {
      await phone.addCookies(await page.context().cookies());
      const small = await phone.newPage();
      await small.goto(page.url());
      const smallHeaders = small.getByLabel(`${field('webhook', 'headers').label} (optional)`);
      await smallHeaders.fill('X-Team: ops\nContent-Type: text/plain');
      await small.getByRole('button', { name: 'Save channel' }).click();
      await small.locator('#edit-channel-headers-error').waitFor();
      expect(await seriousViolations(small), 'the refusal at 375 px dark').to.deep.equal([]);
      await small.screenshot({ path: path.join(SHOTS, 'channel-form-headers-375-dark.png'), fullPage: true });
    } finally {
      await phone.close();
    }
    await headers.fill('X-Team: platform\nX-Env: prod');
    await page.getByRole('button', { name: 'Save channel' }).click();
    await refusal.waitFor({ state: 'detached' });
    await savedConfigBecomes(made.body.publicId as string, {
      url: 'https://hooks.example.com/in',
      headers: { 'X-Team': 'platform', 'X-Env': 'prod' },
    });
  });

  /** A channel's config as the API answers it, read again until it is `want` (the save lands after the click) or 2 s passed. */
  async function savedConfigBecomes(id: string, want: unknown) {
    const read = async () => (await call('GET', `/api/notification-channels/${id}`)).body.config as unknown;
    for (let i = 0; i < 20 && JSON.stringify(await read()) !== JSON.stringify(want); i += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await read()).to.deep.equal(want);
  }
});
