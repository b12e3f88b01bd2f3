import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { anOrganization, type SignedUp } from '../../support/builders';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';
import { api } from '../../support/http-client';
import { aCustomerRow, aMember, signIn, type Member } from '../../support/identity-fixtures';
import { setIncidentManagement } from '../../support/im-fixtures';
import { aMonitorRow } from '../../support/results-fixtures';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');
const DAY = 86_400_000;

async function created<T = any>(call: Promise<{ status: number; body: T }>): Promise<T> {
  const response = await call;
  if (response.status !== 201 && response.status !== 200) throw new Error(`setup failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

/**
 * Incident management in the console (issue 47, screen 9) and incident updates (screen 5), through
 * the UI of a real Chromium: an organization with IM switched on by the platform admin, one team,
 * one daily rotation of two people; the browser signed in as its admin.
 */
describe('console: on-call and incident updates', function () {
  this.timeout(120_000);
  let app: RunningApplication;
  let browser: Browser;
  let org: SignedUp;
  let responder: Member;
  let cookie: { name: string; value: string };
  let incidentId: string;
  const contexts: BrowserContext[] = [];

  const signedIn = async (options: { width: number; scheme: 'light' | 'dark'; as?: { name: string; value: string } }) => {
    const context = await browser.newContext({
      viewport: { width: options.width, height: 800 },
      colorScheme: options.scheme,
      bypassCSP: true,
    });
    contexts.push(context);
    await context.addCookies([{ ...(options.as ?? cookie), url: app.url }]);
    return context.newPage();
  };

  before(async () => {
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
    org = await anOrganization('oncall');
    await setIncidentManagement(org.user.organizationId, true);
    responder = await aMember(org, 'responder');
    const team = await created(
      api('POST', '/api/im/teams', {
        token: org.token,
        body: { name: 'Platform', members: [{ userId: org.user.id, imRole: 'admin' }, { userId: responder.id }] },
      }),
    );
    await created(
      api('POST', '/api/im/schedules', {
        token: org.token,
        body: {
          teamId: team.id,
          name: 'Primary',
          timezone: 'UTC',
          layers: [
            {
              name: 'Daily',
              rotationType: 'daily',
              startsAt: new Date(Math.floor(Date.now() / DAY) * DAY - 14 * DAY).toISOString(),
              users: [org.user.id, responder.id],
            },
          ],
        },
      }),
    );
    const customerId = await aCustomerRow(org.user.organizationId, 'Harbour Ltd');
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { name: 'Harbour' });
    incidentId = (
      await created(api('POST', '/api/incidents', { token: org.token, body: { monitorId: monitor.publicId, title: 'Harbour is slow' } }))
    ).publicId;
    const [name, value] = (await signIn(org.email, org.password)).cookie.split('=');
    cookie = { name: name!, value: value! };
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await app?.stop();
  });

  it('shows who is on call, the calendar with an added override, an escalation policy after its field error, teams', async () => {
    const page = await signedIn({ width: 1100, scheme: 'light' });
    await page.goto(`${app.url}/app/`);
    await page.getByRole('link', { name: 'On-call' }).click();
    const now = page.getByRole('list', { name: 'On call now' });
    await now.getByText('Primary').waitFor();
    expect(await now.getByText(/Ada Lovelace \(you\)|responder user/).count()).to.equal(1);
    await page.screenshot({ path: path.join(SHOTS, 'on-call-now.png'), fullPage: true });

    await page.getByRole('link', { name: 'Schedules' }).click();
    const calendar = page.getByRole('list', { name: /^Primary from / });
    await calendar.waitFor();
    expect(await calendar.locator('.calendar-day').count()).to.equal(7);
    expect(await calendar.getByText('responder user').count()).to.be.greaterThan(0);
    await page.getByLabel('Who takes over').selectOption({ label: 'responder user' });
    await page.getByRole('button', { name: 'Add override' }).click();
    await page.getByText('Override added for responder user.').waitFor();
    await calendar.getByText('override', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: '4 weeks' }).click();
    await page.waitForFunction(`document.querySelectorAll('.calendar-day').length === 28`);
    await page.screenshot({ path: path.join(SHOTS, 'on-call-calendar.png'), fullPage: true });

    await page.getByRole('link', { name: 'Escalation policies' }).click();
    await page.getByRole('button', { name: 'New escalation policy' }).click();
    await page.getByRole('button', { name: 'Create policy' }).click();
    const nameError = page.locator('#policy-name-error');
    await nameError.waitFor();
    expect(await nameError.textContent()).to.match(/\S/);
    await page.getByLabel('Policy name').fill('Wake the primary');
    await page.getByLabel('Minutes to acknowledge before the next level').fill('10');
    await page.getByRole('button', { name: 'Create policy' }).click();
    const policies = page.getByRole('list', { name: 'Escalation policies' });
    await policies.getByText('Wake the primary').waitFor();
    await policies.getByText('Page whoever is on call in Primary; 10 min to acknowledge').waitFor();
    const stored = await api('GET', '/api/escalation-config', { token: org.token });
    expect(
      stored.body.items.map((p: { name: string; levels: Array<{ delayMinutes: number }> }) => [p.name, p.levels[0]!.delayMinutes]),
    ).to.deep.equal([['Wake the primary', 10]]);

    await page.getByRole('link', { name: 'Teams' }).click();
    const members = page.getByRole('list', { name: 'Members of Platform' });
    await members.getByText('responder user').waitFor();
    await members.getByText('team admin').waitFor();
  });

  it('shows an alert source’s ingest URL once; an alert posted to it over HTTP and a test alert show as incidents', async () => {
    const page = await signedIn({ width: 1100, scheme: 'light' });
    await page.goto(`${app.url}/app/on-call/sources`);
    await page.getByLabel('Source name').fill('Prometheus');
    await page.getByLabel('What sends to it').selectOption('alertmanager');
    await page.getByRole('button', { name: 'Add alert source' }).click();
    const urlField = page.getByRole('textbox', { name: 'Ingest URL' });
    await urlField.waitFor();
    const url = await urlField.inputValue();
    expect(url).to.match(new RegExp(`^${app.url}/api/im/ingest/wsmi_`));
    await page.getByRole('button', { name: 'Copy' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Copied|Selected/ })
      .waitFor();

    const posted = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        version: '4',
        status: 'firing',
        alerts: [
          {
            status: 'firing',
            fingerprint: 'disk-1',
            labels: { alertname: 'DiskFull', severity: 'critical' },
            annotations: { summary: 'Disk full on db-1' },
          },
        ],
      }),
    });
    expect(posted.status).to.equal(202);

    await page.getByRole('button', { name: 'Send a test alert through Prometheus' }).click();
    await page.getByText(/^Test alert created/).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'on-call-sources.png'), fullPage: true });

    await page.getByRole('link', { name: 'Incidents' }).nth(1).click();
    const incidents = page.getByRole('list', { name: 'Incident management incidents' });
    await incidents.getByText('Disk full on db-1').waitFor();
    await incidents.getByText('Test alert from Prometheus').waitFor();
    await page.getByRole('button', { name: 'Acknowledge Disk full on db-1' }).click();
    await incidents.getByText(/acknowledged by Ada Lovelace \(you\)/).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'on-call-incidents.png'), fullPage: true });
  });

  it('posts an update on a monitor incident; it shows on that timeline and, live, on another open console', async () => {
    const watcher = await signedIn({ width: 1100, scheme: 'light' });
    await watcher.goto(`${app.url}/app/incidents/${incidentId}`);
    await watcher.getByRole('heading', { name: 'Harbour is slow' }).waitFor();
    await watcher.getByRole('list', { name: 'Timeline' }).getByText('Opened').waitFor();

    const page = await signedIn({ width: 375, scheme: 'dark' });
    await page.goto(`${app.url}/app/incidents/${incidentId}`);
    await page.getByRole('button', { name: 'Post update' }).click();
    await page.locator('#incident-update-error').waitFor();
    await page.getByRole('textbox', { name: 'Update', exact: true }).fill('Rolled back the <b>deploy</b>; watching.');
    await page.getByRole('button', { name: 'Post update' }).click();
    await page.getByRole('list', { name: 'Timeline' }).getByText('— Rolled back the <b>deploy</b>; watching.').waitFor();
    expect(await page.getByRole('textbox', { name: 'Update', exact: true }).inputValue()).to.equal('');
    await page.screenshot({ path: path.join(SHOTS, 'incident-update.png'), fullPage: true });

    await watcher
      .getByRole('list', { name: 'Timeline' })
      .getByText('— Rolled back the <b>deploy</b>; watching.')
      .waitFor({ timeout: 2_000 });
    const detail = await api('GET', `/api/incidents/${incidentId}`, { token: org.token });
    expect(
      detail.body.timeline
        .filter((e: { kind: string }) => e.kind === 'update')
        .map((e: { message: string; userId: string }) => [e.message, e.userId]),
    ).to.deep.equal([['Rolled back the <b>deploy</b>; watching.', org.user.id]]);

    const readonly = await aMember(org, 'readonly');
    const [name, value] = readonly.cookie.split('=');
    const reader = await signedIn({ width: 1100, scheme: 'light', as: { name: name!, value: value! } });
    await reader.goto(`${app.url}/app/incidents/${incidentId}`);
    await reader.getByRole('heading', { name: 'Harbour is slow' }).waitFor();
    expect(await reader.getByRole('button', { name: 'Post update' }).count()).to.equal(0);
  });

  it('hides On-call where incident management is off, and says so at /on-call', async () => {
    const other = await anOrganization('no-im');
    const [name, value] = (await signIn(other.email, other.password)).cookie.split('=');
    const page = await signedIn({ width: 1100, scheme: 'light', as: { name: name!, value: value! } });
    await page.goto(`${app.url}/app/on-call`);
    await page.getByText('Incident management is not switched on for this organization.').waitFor();
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.getByRole('link', { name: 'On-call' }).count()).to.equal(0);
  });

  it('has no serious or critical axe violation on the new screens (1,100 px light, 375 px dark)', async () => {
    const screens: Array<[string, string, string]> = [
      ['/on-call', 'On call now', 'now'],
      ['/on-call/schedules', 'Schedules', 'schedules'],
      ['/on-call/incidents', 'Incidents', 'incidents'],
      ['/on-call/escalation', 'Escalation policies', 'escalation'],
      ['/on-call/sources', 'Alert sources', 'sources'],
      ['/on-call/teams', 'Teams', 'teams'],
      [`/incidents/${incidentId}`, 'Post an update', 'incident-update'],
    ];
    const violations: string[] = [];
    for (const [width, scheme] of [
      [1100, 'light'],
      [375, 'dark'],
    ] as const) {
      const page: Page = await signedIn({ width, scheme });
      for (const [screen, heading, label] of screens) {
        await page.goto(`${app.url}/app${screen}`);
        await page.getByRole('heading', { name: heading, exact: true }).waitFor();
        await page.waitForFunction(
          `!document.querySelector('[role="status"]') || !/Loading/.test(document.querySelector('[role="status"]').textContent)`,
        );
        for (const v of await seriousViolations(page)) violations.push(`${width}-${scheme} ${label}: ${v}`);
        await page.screenshot({ path: path.join(SHOTS, `on-call-a11y-${width}-${scheme}-${label}.png`), fullPage: true });
      }
    }
    expect(violations).to.deep.equal([]);
  });
});
