import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console/forms');
const CHANNELS = (process.env.SHOT_CHANNELS ?? '').split(',').filter(Boolean);
const KINDS = (process.env.SHOT_KINDS ?? '').split(',').filter(Boolean);

describe('temporary: form screenshots', function () {
  this.timeout(300_000);
  let app: RunningApplication;
  let browser: Browser;
  let page: Page;
  before(async () => {
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
    const email = uniqueEmail('shots');
    await apiAt(app.url, 'POST', '/api/auth/sign-up/email', { body: { name: 'Ada', email, password: 'a long passphrase', organizationName: 'Shots' } });
    const signIn = await apiAt(app.url, 'POST', '/api/auth/sign-in/email', { body: { email, password: 'a long passphrase' } });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, bypassCSP: true });
    await context.addCookies([{ name: cookie.slice(0, cookie.indexOf('=')), value: cookie.slice(cookie.indexOf('=') + 1), url: app.url }]);
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });
  it('takes them', async () => {
    await page.goto(`${app.url}/app/channels`);
    await page.getByRole('heading', { name: 'Notification channels', level: 1 }).waitFor();
    for (const type of CHANNELS) {
      await page.getByLabel('Kind').selectOption(type);
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(SHOTS, `channel-${type}.png`), fullPage: true });
    }
    for (const kind of KINDS) {
      await page.goto(`${app.url}/app/monitors/new?kind=${kind}`);
      await page.waitForTimeout(800);
      await page.screenshot({ path: path.join(SHOTS, `monitor-${kind}.png`), fullPage: true });
    }
  });
});
