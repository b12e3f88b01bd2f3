import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { uniqueEmail } from '../../support/builders';
import { checkTwice } from '../../support/console-checks';
import { aConsoleService, launchConsoleBrowser } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { PASSWORD } from '../../support/identity-fixtures';

/** The live event of an act arrives within the stream's delay; a reload would follow it 250 ms later. */
const SETTLE_MS = 3000;

/**
 * One act, one request: in real Chromium, acknowledging, resolving, posting an update, pausing,
 * resuming and checking now send their one request and show its answer; the live event of that same
 * change reads nothing again (every API request the page sends while it settles is counted).
 */
describe('console: an act costs one request (incidents, an incident, a monitor)', function () {
  this.timeout(300_000);
  let app: RunningApplication;
  let browser: Browser;
  let context: BrowserContext;
  let token = '';
  let websiteId = '';
  const target = http.createServer((_req, res) => res.end('ok'));
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await apiAt(app.url, method, route, { token, ...(body === undefined ? {} : { body }) });
    expect(response.status, `${method} ${route}: ${JSON.stringify(response.body)}`).to.be.below(300);
    return response.body;
  };
  const declare = async (title: string) => (await call('POST', '/api/incidents', { monitorId: websiteId, title })).publicId as string;

  before(async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    const signedUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Ada Admin', email: uniqueEmail('one-request'), password: PASSWORD, organizationName: 'One request' },
    });
    token = signedUp.body.token as string;
    const customer = (await call('POST', '/api/customers', { name: 'Harbour Co', email: 'ops@harbour.example' })).customer;
    const site = await call('POST', '/api/websites', {
      customerId: customer.id,
      name: 'Harbour',
      url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/`,
    });
    websiteId = site.publicId as string;
    // Up before the pages open: its first result's state change is not one the tests make.
    await checkTwice(app.url, token, websiteId, 1);
    for (let tries = 0; (await call('GET', `/api/websites/${websiteId}`)).currentState.status !== 'up'; tries++) {
      if (tries > 300) throw new Error('the monitor never went up');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    await context.addCookies([{ name: 'wsm_session', value: token, url: app.url }]);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
  });

  /** A page at `path`, drawn (its heading) and settled. */
  async function opened(path: string, heading: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${app.url}/app${path}`);
    await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
    await page.waitForLoadState('networkidle');
    return page;
  }

  /** The API requests (the event stream aside) the page sends from the act until its answer is shown and the page has settled. */
  async function requestsOf(page: Page, act: () => Promise<void>, shown: () => Promise<void>): Promise<string[]> {
    const requests: string[] = [];
    const listener = (request: { url(): string; method(): string }) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/') && url.pathname !== '/api/events') requests.push(`${request.method()} ${url.pathname}`);
    };
    page.on('request', listener);
    try {
      await act();
      await shown();
      await page.waitForTimeout(SETTLE_MS);
    } finally {
      page.off('request', listener);
    }
    return requests;
  }

  it('acknowledging an incident costs one request: the answer updates the list, and its live event reads nothing again', async () => {
    const id = await declare('Disk full');
    const page = await opened('/incidents', 'Incidents');
    const item = page.locator('li.incident', { hasText: 'Disk full' });
    const requests = await requestsOf(
      page,
      () => item.getByRole('button', { name: 'Acknowledge' }).click(),
      () => item.locator('.pill-acknowledged').waitFor(),
    );
    expect(requests).to.deep.equal([`POST /api/incidents/${id}/acknowledge`]);
    await page.close();
  });

  it("on an incident's page, acknowledging, posting an update and resolving cost one request each and show on its timeline", async () => {
    const id = await declare('Queue stuck');
    const page = await opened(`/incidents/${id}`, 'Queue stuck');
    const timeline = page.getByRole('list', { name: 'Timeline' });

    const acknowledged = await requestsOf(
      page,
      () => page.getByRole('button', { name: 'Acknowledge' }).click(),
      () => timeline.getByText(/Acknowledged by Ada Admin/).waitFor(),
    );
    expect(acknowledged).to.deep.equal([`POST /api/incidents/${id}/acknowledge`]);
    expect(await page.locator('.pill-acknowledged').count()).to.equal(1);

    await page.getByRole('textbox', { name: 'Update' }).fill('Draining the queue by hand');
    const updated = await requestsOf(
      page,
      () => page.getByRole('button', { name: 'Post update' }).click(),
      () => timeline.getByText('Draining the queue by hand').waitFor(),
    );
    expect(updated).to.deep.equal([`POST /api/incidents/${id}/updates`]);

    const resolved = await requestsOf(
      page,
      () => page.getByRole('button', { name: 'Resolve' }).click(),
      () => timeline.getByText(/Resolved by Ada Admin/).waitFor(),
    );
    expect(resolved).to.deep.equal([`POST /api/incidents/${id}/resolve`]);
    expect(await page.locator('.pill-resolved').count()).to.equal(1);
    expect(await page.getByRole('button', { name: 'Post update' }).count(), 'a resolved incident takes no update').to.equal(0);
    // What the page shows from the answers is what the service recorded.
    await page.reload();
    await timeline.getByText(/Resolved by Ada Admin/).waitFor();
    expect(await timeline.getByText(/Acknowledged by Ada Admin/).count()).to.equal(1);
    expect(await timeline.getByText('Draining the queue by hand').count()).to.equal(1);
    await page.close();
  });

  it("on a monitor's page, pausing, resuming, acknowledging its incident and checking now read nothing of the page again", async () => {
    const id = await declare('Slow checkout');
    const page = await opened(`/monitors/website/${websiteId}`, 'Harbour');
    const paused = await requestsOf(
      page,
      () => page.getByRole('button', { name: 'Pause', exact: true }).click(),
      () => page.getByRole('button', { name: 'Resume', exact: true }).waitFor(),
    );
    expect(paused).to.deep.equal([`PATCH /api/websites/${websiteId}`]);
    const resumed = await requestsOf(
      page,
      () => page.getByRole('button', { name: 'Resume', exact: true }).click(),
      () => page.getByRole('button', { name: 'Pause', exact: true }).waitFor(),
    );
    expect(resumed).to.deep.equal([`PATCH /api/websites/${websiteId}`]);

    const item = page.locator('li.incident', { hasText: 'Slow checkout' });
    const acknowledged = await requestsOf(
      page,
      () => item.getByRole('button', { name: 'Acknowledge' }).click(),
      () => item.locator('.pill-acknowledged').waitFor(),
    );
    expect(acknowledged).to.deep.equal([`POST /api/incidents/${id}/acknowledge`]);

    // No event tells of a check's result: its history is read until the result is there, and the chart draws it; nothing else is read.
    const checked = await requestsOf(
      page,
      () => page.getByRole('button', { name: 'Check now' }).click(),
      () => page.getByText(/^Result: up from local/).waitFor(),
    );
    const history = `GET /api/websites/${websiteId}/check-history`;
    expect(checked[0]).to.equal(`POST /api/websites/${websiteId}/trigger-check`);
    expect(checked.filter((request) => request !== history).slice(1)).to.deep.equal([`GET /api/websites/${websiteId}/response-times`]);
    await page.close();
  });
});
