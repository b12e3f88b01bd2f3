import { expect } from 'chai';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');
const PASSWORD = 'a long passphrase';

/**
 * A monitor's page and an incident's page in real Chromium, with the notification worker on: the
 * response-time chart drawn for every period, the incident's timeline with each delivery attempt
 * and the receiver's answer, acknowledging from the incident page, pausing, resuming and deleting.
 */
describe('console: a monitor and its incident, with the delivery ledger', function () {
  this.timeout(120_000);
  let app: RunningApplication;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let failing = false;
  const target = http.createServer((_req, res) => {
    res.statusCode = failing ? 503 : 200;
    res.end(failing ? 'down' : 'ok');
  });
  const received: string[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(body);
      res.statusCode = 202;
      res.end('thanks');
    });
  });
  const call = (method: string, url: string, token: string, body?: unknown) => apiAt(app.url, method, url, { token, body });
  let token = '';
  let websiteId = '';

  before(async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService({ notificationWorker: true });
    browser = await launchConsoleBrowser();
    context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    fs.mkdirSync(SHOTS, { recursive: true });
    const email = uniqueEmail('ledger');
    const admin = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Katherine Johnson', email, password: PASSWORD, organizationName: 'Ledger' },
    });
    token = admin.body.token as string;
    const customer = (await call('POST', '/api/customers', token, { name: 'Harbour Co', email: 'ops@harbour.example' })).body.customer;
    const hook = await call('POST', '/api/notification-channels', token, {
      name: 'Ops hook',
      type: 'webhook',
      config: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` },
    });
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
    const site = await call('POST', '/api/websites', token, {
      customerId: customer.id,
      name: 'Harbour',
      url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/`,
    });
    expect(site.status, JSON.stringify(site.body)).to.equal(201);
    websiteId = site.body.publicId as string;
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
    for (const server of [target, receiver]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('draws the response times for every period and tells the incident with each delivery attempt and its answer', async () => {
    await page.getByRole('link', { name: 'Harbour' }).click();
    await page.getByRole('heading', { name: 'Harbour' }).waitFor();
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText(/^Result: up from local/).waitFor();
    const chart = page.getByRole('img', { name: /^Response times over the last/ });
    for (const period of ['Hour', 'Day', 'Week', '30 days', '90 days']) {
      await page.getByRole('group', { name: 'Period' }).getByRole('button', { name: period, exact: true }).click();
      await chart.locator('canvas').waitFor();
      expect(await chart.getAttribute('aria-label')).to.match(/local: latest median \d+ ms/);
    }

    failing = true;
    for (let i = 0; i < 2; i++) {
      await page.getByRole('button', { name: 'Check now' }).click();
      await page.getByText(/^Result: down from local/).waitFor();
    }
    const incidentLink = page.getByRole('list', { name: 'Incidents' }).getByRole('link').first();
    await incidentLink.waitFor({ timeout: 5_000 });
    await incidentLink.click();
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByText('Opened', { exact: true }).waitFor();
    // The webhook's try and the receiver's answer arrive live.
    await timeline.getByText(/Ops hook \(webhook\) told incident\.opened, try 1/).waitFor({ timeout: 10_000 });
    await timeline
      .getByText(/answered 202/)
      .first()
      .waitFor();
    expect(received.length).to.be.at.least(1);

    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await timeline.getByText(/Acknowledged by Katherine Johnson/).waitFor({ timeout: 5_000 });
    await page.screenshot({ path: path.join(SHOTS, 'incident.png'), fullPage: true });
    failing = false;
  });

  it('pauses, resumes and deletes a monitor, deletion only after a confirmation naming it', async () => {
    await page.goto(`${app.url}/app/monitors/website/${websiteId}`);
    await page.getByRole('heading', { name: 'Harbour' }).waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    expect((await call('GET', `/api/websites/${websiteId}`, token)).body.status).to.equal('paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    expect((await call('GET', `/api/websites/${websiteId}`, token)).body.status).to.equal('active');

    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByText('Delete “Harbour” and its history?').waitFor();
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect((await call('GET', `/api/websites/${websiteId}`, token)).status).to.equal(200);
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect((await call('GET', `/api/websites/${websiteId}`, token)).status).to.equal(404);
  });
});
