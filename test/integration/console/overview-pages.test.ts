import { expect } from 'chai';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { uniqueEmail } from '../../support/builders';
import { aConsoleService, launchConsoleBrowser } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { PASSWORD } from '../../support/identity-fixtures';

/**
 * The overview reads a list of thousands of monitors in pages of 1,000, several calls at a time. The
 * first visit learns the length from the first answer; a later visit starts as many calls as the
 * list had pages then, and a list that shrank meanwhile is still shown whole and right.
 */
describe('console: the overview of a list of several pages', function () {
  this.timeout(240_000);
  let app: RunningApplication;
  let browser: Browser;
  let context: BrowserContext;
  let organizationId: number;
  let customerId: number;

  before(async () => {
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    const signUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Grace Hopper', email: uniqueEmail('pages'), password: PASSWORD, organizationName: 'Pages' },
    });
    const token = signUp.body.token as string;
    organizationId = signUp.body.user.organizationId as number;
    const customer = await apiAt(app.url, 'POST', '/api/customers', { token, body: { name: 'Pages Co', email: 'ops@pages.example' } });
    customerId = customer.body.customer.id as number;
    // Seeded in SQL as the API's writes leave them (2,100 creates through the API would only time the setup).
    await app.database.sql.query(
      sql`INSERT INTO monitors (public_id, organization_id, customer_id, kind, monitoring_type, name, status, management_type,
             check_interval, timeout_seconds, locations, url, config, created_at, updated_at)
           SELECT gen_random_uuid(), ${organizationId}, ${customerId}, 'website', 'http', 'Site ' || g, 'paused', 'managed',
             5, 30, ARRAY['eu-central'], 'https://site-' || g || '.example.com/', '{"checkSslEnabled": false}'::jsonb, now(), now()
             FROM generate_series(1, 2100) g`,
    );
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'wsm_session', value: token, url: app.url }]);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  /** Opens the overview; answers each list call's page and whether it left before the first answer came. */
  async function visit(shown: number): Promise<Array<{ page: number; beforeFirstAnswer: boolean }>> {
    const page: Page = await context.newPage();
    const calls: Array<{ page: number; beforeFirstAnswer: boolean }> = [];
    let answered = false;
    const isList = (request: Request) => new URL(request.url()).pathname === '/api/monitor-overview';
    page.on('request', (request) => {
      if (isList(request)) calls.push({ page: Number(new URL(request.url()).searchParams.get('page')), beforeFirstAnswer: !answered });
    });
    page.on('response', (response) => {
      if (isList(response.request())) answered = true;
    });
    await page.goto(`${app.url}/app/`);
    await page.getByText(`of ${shown} monitors shown`).waitFor({ timeout: 60_000 });
    await page.close();
    return calls.sort((a, b) => a.page - b.page);
  }

  it('reads three pages, then starts them at once, and shows a list that shrank to one page whole', async () => {
    const first = await visit(2100);
    expect(first.map((c) => c.page)).to.deep.equal([1, 2, 3]);
    expect(
      first.filter((c) => c.beforeFirstAnswer).map((c) => c.page),
      'a first visit asks for one page first',
    ).to.deep.equal([1]);

    const second = await visit(2100);
    expect(second).to.deep.equal([1, 2, 3].map((page) => ({ page, beforeFirstAnswer: true })));

    await app.database.sql.query(sql`DELETE FROM monitors WHERE customer_id = ${customerId} AND name <> ALL(
      SELECT 'Site ' || g FROM generate_series(1, 900) g)`);
    const shrunk = await visit(900);
    expect(
      shrunk.map((c) => c.page),
      'the guess of three pages, two of them past the end',
    ).to.deep.equal([1, 2, 3]);

    const after = await visit(900);
    expect(
      after.map((c) => c.page),
      'one page now',
    ).to.deep.equal([1]);
  });
});
