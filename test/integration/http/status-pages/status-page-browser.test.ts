import { expect } from 'chai';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promises as fs } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { useLoopbackChecks } from '../../../support/loopback-checks';
import { testClock } from '../../../support/test-clock';
import { testServer } from '../../../support/test-server';
import { anEngineFor, runUntilRecorded } from '../../../support/engine-runs';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const LOCATION = 'eu-west';
const MINUTE = 60_000;
const CHROMIUM = process.env.BROWSER_EXECUTABLE_PATH || '/usr/bin/chromium';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A 1x1 PNG: the logo the page embeds as a data URL. */
const LOGO = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** What a visitor sees, read from the rendered page as a person would (visible text, not the markup). */
async function seen(page: Page, monitorId: string) {
  const row = page.locator(`[data-component="${monitorId}"]`);
  return {
    headline: (await page.locator('h2#now').innerText()).trim(),
    component: (await row.locator('.st').innerText()).trim(),
    body: await page.locator('main').innerText(),
  };
}

describe('A status page in headless Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  let target: http.Server;
  let failing = false;
  let screenshots: string;

  before(async () => {
    await useLoopbackChecks({});
    target = http.createServer((_req, res) => (failing ? res.writeHead(503).end('down') : res.writeHead(200).end('Welcome')));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    // STATUS_PAGE_SCREENSHOTS keeps them (a CI artifact); otherwise they go to a temporary directory.
    screenshots = process.env.STATUS_PAGE_SCREENSHOTS ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'status-page-')));
    await fs.mkdir(screenshots, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => target.close(resolve));
    if (!process.env.STATUS_PAGE_SCREENSHOTS) await fs.rm(screenshots, { recursive: true, force: true });
  });

  it("shows a customer's components up, then down with the incident within one failing check, then in maintenance", async () => {
    const { url: service, database } = await testServer();
    const org = await anOrganization('browser-page');
    const customerId = await aCustomerRow(org.user.organizationId, 'Acme GmbH');
    const monitor = await aMonitorRow(org.user.organizationId, customerId, {
      name: 'Acme shop',
      locations: [LOCATION],
      consecutiveChecks: 1,
    });
    const { port } = target.address() as AddressInfo;
    await database.sql.query(
      sql`UPDATE monitors SET kind = 'website', monitoring_type = 'http', url = ${`http://127.0.0.1:${port}/`}, timeout_seconds = 5 WHERE id = ${monitor.id}`,
    );
    await database.sql.query(
      sql`UPDATE check_schedule SET next_due_at = ${new Date(testClock.now().getTime() + 3_600_000)} WHERE monitor_id = ${monitor.id}`,
    );
    const slug = `acme-${Math.random().toString(36).slice(2, 8)}`;
    const created = await api('POST', '/api/status-pages', {
      token: org.token,
      body: {
        title: 'Acme status',
        slug,
        customerId: String(customerId),
        brandColor: '#0a3069',
        logo: LOGO,
        groups: [{ name: 'Shop', components: [{ type: 'monitor', id: monitor.publicId }] }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const dispatcher = await anEngineFor(new Set([monitor.id]), [LOCATION], 'status-page-browser');
    const check = async () => {
      await api('POST', `/api/websites/${monitor.publicId}/trigger-check`, { token: org.token });
      await runUntilRecorded(dispatcher, 1);
      testClock.advance(6_000); // past the page's refresh window (STATUS_PAGE_REFRESH_MS)
    };

    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(service) && !request.url().startsWith('data:')) outside.push(request.url());
    });

    await check();
    await page.goto(`${service}/status/${slug}`);
    let visible = await seen(page, monitor.publicId);
    expect(visible).to.deep.include({ headline: 'All systems operational', component: 'Operational' });
    expect(await page.locator('h1').innerText()).to.equal('Acme status');
    expect(await page.locator('header img').getAttribute('alt')).to.equal('Acme status logo');
    expect(
      await page.locator('header img').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      'the logo loads from its data URL',
    ).to.equal(1);
    expect(await page.locator(`[data-component="${monitor.publicId}"] svg[role="img"]`).getAttribute('aria-label')).to.match(
      /^Last 90 days: /,
    );
    const up = await page.screenshot({ path: path.join(screenshots, 'up.png'), fullPage: true });
    expect(up.subarray(0, 8).equals(PNG_SIGNATURE)).to.equal(true);

    failing = true;
    await check();
    await page.reload();
    visible = await seen(page, monitor.publicId);
    expect(visible).to.deep.include({ headline: 'Major outage', component: 'Down' });
    expect(visible.body).to.include('Active incidents').and.include('We are investigating a problem with Acme shop.');
    await page.screenshot({ path: path.join(screenshots, 'down.png'), fullPage: true });

    const window = await api('POST', '/api/maintenance-windows', {
      token: org.token,
      body: {
        title: 'Shop migration',
        startTime: new Date(testClock.now().getTime() - MINUTE).toISOString(),
        endTime: new Date(testClock.now().getTime() + 60 * MINUTE).toISOString(),
        targets: [{ type: 'customer', id: String(customerId) }],
      },
    });
    expect(window.status, JSON.stringify(window.body)).to.equal(201);
    testClock.advance(6_000);
    await page.reload();
    visible = await seen(page, monitor.publicId);
    expect(visible).to.deep.include({ component: 'Maintenance' });
    expect(visible.body).to.include('Maintenance in progress').and.include('Shop migration');
    await page.screenshot({ path: path.join(screenshots, 'maintenance.png'), fullPage: true });
    expect(outside, 'no external assets').to.deep.equal([]);
    await context.close();
    failing = false;
  });
});
