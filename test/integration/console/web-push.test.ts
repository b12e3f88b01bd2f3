import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';
import { PushService } from '../../support/peers/push-service';
import { openConsoleWithWorker, shownWithTag, type ConsoleWithWorker } from '../../support/push-browser';
import { waitFor } from '../../support/wait-for';

/**
 * The console's service worker in real Chromium: registered under the console's CSP, shown a push
 * the service sent (taken and decrypted by a loopback push service, delivered to the worker through
 * CDP as the browser delivers its push service's messages), the notification opening the incident,
 * its Acknowledge action acknowledging with the grant it carries (no cookie), and the manifest.
 */
describe('console: Web Push in Chromium with the real service worker', function () {
  this.timeout(180_000);
  let app: RunningApplication;
  let browser: Browser;
  let tab: ConsoleWithWorker;
  const push = new PushService('127.0.0.1');
  const target = http.createServer((_req, res) => res.end('ok'));
  let token = '';
  const email = uniqueEmail('push-console');
  let monitorId = '';
  const call = (method: string, url: string, body?: unknown) => apiAt(app.url, method, url, { token, body });

  before(async () => {
    await push.start();
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService({ notificationWorker: true });
    browser = await launchConsoleBrowser();
    const admin = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Grace Hopper', email, password: 'a long passphrase', organizationName: 'Pager' },
    });
    token = admin.body.token as string;
    const customer = (await call('POST', '/api/customers', { name: 'Harbour Co', email: 'ops@harbour.example' })).body.customer;
    const site = await call('POST', '/api/websites', {
      customerId: customer.id,
      name: 'Harbour',
      url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/`,
    });
    expect(site.status, JSON.stringify(site.body)).to.equal(201);
    monitorId = site.body.publicId as string;
    const { vapidPublicKey } = (await call('GET', '/api/me/push-subscriptions')).body;
    const device = push.device(vapidPublicKey as string);
    expect((await call('POST', '/api/me/push-subscriptions', device.subscription)).status).to.equal(201);
    const channel = await call('POST', '/api/notification-channels', {
      name: 'Phones',
      type: 'web-push',
      config: { userIds: [admin.body.user.id] },
    });
    expect(channel.status, JSON.stringify(channel.body)).to.equal(201);
    tab = await openConsoleWithWorker(browser, app.url);
  });
  after(async () => {
    await tab?.close();
    await browser?.close();
    await app?.stop();
    await push.stop();
    target.close();
  });

  it('registers the service worker at /app/sw.js under the strict CSP, and serves a manifest with icons', async () => {
    expect(tab.worker.url()).to.equal(`${app.url}/app/sw.js`);
    const page = await fetch(`${app.url}/app/`);
    expect(page.headers.get('content-security-policy')).to.include("worker-src 'self'");
    const manifest = await fetch(`${app.url}/api/branding/manifest.webmanifest`);
    expect(manifest.headers.get('content-type')).to.match(/^application\/manifest\+json/);
    const body = (await manifest.json()) as { name: string; start_url: string; icons: { src: string; purpose: string; type: string }[] };
    expect(body).to.deep.include({ name: 'Monitoring', start_url: '/app/' });
    expect(body.icons.some((i) => i.purpose === 'maskable' && i.type === 'image/png')).to.equal(true);
    for (const icon of body.icons) expect((await fetch(`${app.url}${icon.src}`)).status, icon.src).to.equal(200);
    expect((await fetch(`${app.url}/favicon.ico`, { redirect: 'manual' })).status).to.equal(302);
  });

  it("shows an opened incident's push with an Acknowledge action that acknowledges it (one tap), and a tap on the body opens it", async () => {
    const opened = await call('POST', '/api/incidents', { monitorId, title: 'Harbour checkout failing' });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
    const incidentId = opened.body.publicId as string;
    await waitFor(() => push.pushed.some((p) => p.payload?.tag === incidentId), { what: 'the push taken', timeoutMs: 20_000 });
    const pushed = push.pushed.find((p) => p.payload?.tag === incidentId)!;
    expect(pushed.problems).to.deep.equal([]);
    await tab.deliver(JSON.stringify(pushed.payload));
    const { notification } = await shownWithTag(tab, incidentId);
    expect(notification.title).to.include('Harbour checkout failing');
    expect(notification.actions).to.deep.equal(['acknowledge']);
    expect(notification.data.url).to.equal(`/app/incidents/${incidentId}`);

    const answered = await tab.tap('acknowledge');
    expect(answered).to.equal(true);
    expect((await call('GET', `/api/incidents/${incidentId}`)).body.acknowledgedAt).to.be.a('string');
    const [confirmation] = (await tab.notifications()).filter((n) => n.tag === incidentId);
    expect(confirmation).to.deep.include({ title: 'Acknowledged', actions: [] });

    // The same grant again (a second tap on a copy) is refused, and the worker says so.
    await tab.deliver(JSON.stringify(pushed.payload));
    await waitFor(async () => (await tab.notifications()).some((n) => n.tag === incidentId && n.actions.length === 1), {
      what: 'shown again',
    });
    expect(await tab.tap('acknowledge')).to.equal(false);
    expect((await tab.notifications()).find((n) => n.tag === incidentId)!.title).to.equal('Not acknowledged');

    // A tap on the notification itself opens the incident's page (the window the browser opens on a real tap).
    expect(await tab.tap('')).to.equal(`${app.url}/app/incidents/${incidentId}`);
  });

  it("lists the person's devices on their account page, removes one there, and says so when this browser cannot subscribe", async () => {
    const { page } = tab;
    await page.goto(`${app.url}/app/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a long passphrase');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.goto(`${app.url}/app/account`);
    const devices = page.locator('.push-devices li');
    await devices.first().waitFor();
    const before = (await call('GET', '/api/me/push-subscriptions')).body.items as { id: string }[];
    expect(await devices.count()).to.equal(before.length);
    expect(await devices.first().textContent()).to.include(new URL(push.origin).host);

    // Ring this device: Chromium asks its own push service, which a loopback-only machine cannot reach.
    await page.getByRole('button', { name: 'Ring this device' }).click();
    await page.getByRole('alert').filter({ hasText: 'This browser could not subscribe' }).waitFor({ timeout: 30_000 });
    expect((await call('GET', '/api/me/push-subscriptions')).body.items).to.have.length(before.length);

    await devices.first().getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('status').filter({ hasText: 'no longer rings' }).waitFor();
    await waitFor(async () => (await devices.count()) === before.length - 1, { what: 'the device gone from the list' });
    expect((await call('GET', '/api/me/push-subscriptions')).body.items).to.have.length(before.length - 1);
  });
});
