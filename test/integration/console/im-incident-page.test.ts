import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { anOrganization, type SignedUp } from '../../support/builders';
import { aConsoleService, launchConsoleBrowser, seriousViolations } from '../../support/console-browser';
import { watchConsole } from '../../support/console-errors';
import { api } from '../../support/http-client';
import { aMember, signIn, type Member } from '../../support/identity-fixtures';
import { setIncidentManagement } from '../../support/im-fixtures';

const SHOTS = path.resolve(__dirname, '../../../.test-data/console');

async function created<T = any>(call: Promise<{ status: number; body: T }>): Promise<T> {
  const response = await call;
  if (response.status !== 201 && response.status !== 200) throw new Error(`setup failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

/**
 * One incident of incident management on its own page (/app/on-call/incidents/{id}), in real
 * Chromium against the service: an IM user reads it and takes every act it offers (each changes the
 * incident as the API then tells), a read-only user sees no act, another organization's user is told
 * it is not found (the API answered 404), and axe finds no serious violation.
 */
describe('console: an incident of incident management on its own page', function () {
  this.timeout(240_000);
  let app: RunningApplication;
  let browser: Browser;
  let org: SignedUp;
  let responder: Member;
  let policyId: string;
  let teamId: string;
  const contexts: BrowserContext[] = [];

  const asCookie = (cookie: string) => {
    const [name, value] = cookie.split('=');
    return { name: name!, value: value! };
  };
  const signedIn = async (cookie: { name: string; value: string }, width = 1100, scheme: 'light' | 'dark' = 'light'): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: scheme, bypassCSP: true });
    contexts.push(context);
    await context.addCookies([{ ...cookie, url: app.url }]);
    return context.newPage();
  };
  const declare = async (title: string, routed = true) =>
    (
      await created(
        api('POST', '/api/im/incidents', {
          token: org.token,
          body: { title, severity: 'error', ...(routed ? { teamId, escalationPolicyId: policyId } : {}) },
        }),
      )
    ).id as string;
  const incident = async (id: string) => (await api('GET', `/api/im/incidents/${id}`, { token: org.token })).body;

  before(async () => {
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
    org = await anOrganization('im-page');
    await setIncidentManagement(org.user.organizationId, true);
    responder = await aMember(org, 'responder');
    teamId = (
      await created(
        api('POST', '/api/im/teams', {
          token: org.token,
          body: { name: 'Platform', members: [{ userId: org.user.id, imRole: 'admin' }, { userId: responder.id }] },
        }),
      )
    ).id;
    policyId = (
      await created(
        api('POST', '/api/escalation-config', {
          token: org.token,
          body: { name: 'Wake the primary', levels: [{ delayMinutes: 5, targets: [{ type: 'user', id: org.user.id }] }], repeatCount: 0 },
        }),
      )
    ).id;
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await app?.stop();
  });

  it('opens from the list; shows title once, status, severity, team and policy; every act changes the incident as the API tells', async () => {
    const id = await declare('Payments API erroring');
    const other = await declare('Payments API slow', false);
    const page = await signedIn(asCookie((await signIn(org.email, org.password)).cookie));
    const watch = watchConsole(page);
    await page.goto(`${app.url}/app/on-call/incidents`);
    await page.getByRole('link', { name: 'Payments API erroring' }).click();
    await page.getByRole('heading', { name: 'Payments API erroring', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).to.equal(`/app/on-call/incidents/${id}`);
    expect(await page.getByText('Payments API erroring', { exact: true }).count(), 'the title once').to.equal(1);
    await page.getByText('Platform', { exact: true }).waitFor();
    await page.getByText('Wake the primary', { exact: true }).waitFor();
    expect(await page.locator('.im-state').textContent()).to.equal('triggered error');
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByText('Triggered').waitFor();

    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await timeline.getByText(/Acknowledged by Ada Lovelace \(you\)/).waitFor();
    expect((await incident(id)).status).to.equal('acknowledged');

    await page.getByRole('button', { name: 'Re-trigger' }).click();
    await timeline.getByText(/Status changed from acknowledged to triggered/).waitFor();
    expect((await incident(id)).status).to.equal('triggered');

    await page.getByRole('button', { name: 'Snooze an hour' }).click();
    await timeline.getByText(/Snoozed until/).waitFor();
    expect(Date.parse((await incident(id)).snoozedUntil)).to.be.greaterThan(Date.now() + 50 * 60_000);

    await page.getByRole('button', { name: 'Escalate now' }).click();
    await timeline.getByText(/^Escalated/).waitFor();
    expect((await incident(id)).timeline.map((e: { kind: string }) => e.kind)).to.include('escalated');

    await page.getByLabel('Responder to add').selectOption({ label: 'responder user' });
    await page.getByRole('button', { name: 'Add responder' }).click();
    await timeline.getByText('Responder added: responder user').waitFor();
    await page.locator('.im-fact', { hasText: 'Responders' }).getByText('responder user').waitFor();
    const added = (await incident(id)).timeline.filter((e: { kind: string }) => e.kind === 'responderAdded');
    expect(added.map((e: { details: { userId: string } }) => e.details.userId)).to.deep.equal([responder.id]);

    await page.getByRole('button', { name: 'Merge other incidents into this one…' }).click();
    await page.getByRole('checkbox', { name: /Payments API slow/ }).check();
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    await timeline.getByText(/^Merged in/).waitFor();
    expect((await incident(other)).status).to.equal('merged');
    expect((await incident(id)).occurrenceCount).to.equal(2);

    await page.getByRole('button', { name: 'Resolve' }).click();
    await timeline.getByText(/Resolved by Ada Lovelace \(you\)/).waitFor();
    expect((await incident(id)).status).to.equal('resolved');
    expect(await page.locator('.im-acts').count(), 'a resolved incident takes no act').to.equal(0);
    await page.screenshot({ path: path.join(SHOTS, 'im-incident-resolved.png'), fullPage: true });
    // What the answers showed is what the service recorded.
    await page.reload();
    await timeline.getByText(/Resolved by Ada Lovelace \(you\)/).waitFor();
    await watch.quiet();
    expect(watch.stop()).to.deep.equal([]);
  });

  it("shows a responder outside the incident's team only what the API lets them do (its `can`): acknowledging", async () => {
    const outsider = await aMember(org, 'responder');
    const id = await declare('Cache cold');
    const page = await signedIn(asCookie(outsider.cookie));
    await page.goto(`${app.url}/app/on-call/incidents/${id}`);
    await page.getByRole('heading', { name: 'Cache cold', level: 1 }).waitFor();
    const acts = page.locator('.im-acts');
    await acts.getByRole('button', { name: 'Acknowledge' }).waitFor();
    expect(await acts.getByRole('button').allTextContents()).to.deep.equal(['Acknowledge']);
    expect(await page.getByRole('form', { name: 'Add a responder' }).count()).to.equal(0);
    await acts.getByRole('button', { name: 'Acknowledge' }).click();
    await page
      .getByText(/Acknowledged by/)
      .first()
      .waitFor();
    expect((await incident(id)).status).to.equal('acknowledged');
    // Acknowledged, nothing is left that this responder may do: no act at all.
    await page.locator('.im-acts').waitFor({ state: 'detached' });
  });

  it('shows a read-only user no act, and another organization’s user "not found" (the API answered 404)', async () => {
    const id = await declare('Queue backlog');
    const readonly = await aMember(org, 'readonly');
    const reader = await signedIn(asCookie(readonly.cookie));
    await reader.goto(`${app.url}/app/on-call/incidents/${id}`);
    await reader.getByRole('heading', { name: 'On-call incident' }).waitFor();
    await reader.getByText(/Incident management is for/).waitFor();
    expect(await reader.getByRole('button', { name: /Acknowledge|Resolve|Snooze|Escalate|Add responder|Merge/ }).count()).to.equal(0);
    expect(await reader.getByText('Queue backlog').count()).to.equal(0);

    const stranger = await anOrganization('im-stranger');
    await setIncidentManagement(stranger.user.organizationId, true);
    const page = await signedIn(asCookie((await signIn(stranger.email, stranger.password)).cookie));
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/im/incidents/${id}`);
    await page.goto(`${app.url}/app/on-call/incidents/${id}`);
    expect((await answered).status()).to.equal(404);
    await page.getByRole('heading', { name: 'Incident not found' }).waitFor();
    expect(await page.getByText('Queue backlog').count()).to.equal(0);
    expect(await page.getByRole('button', { name: /Acknowledge|Resolve/ }).count()).to.equal(0);
  });

  it('has no serious or critical axe violation (1,100 px light, 375 px dark, the merge form open)', async () => {
    const id = await declare('Disk filling on db-2');
    await declare('Disk filling on db-3');
    const cookie = asCookie((await signIn(org.email, org.password)).cookie);
    const violations: string[] = [];
    for (const [width, scheme] of [
      [1100, 'light'],
      [375, 'dark'],
    ] as const) {
      const page = await signedIn(cookie, width, scheme);
      await page.goto(`${app.url}/app/on-call/incidents/${id}`);
      await page.getByRole('heading', { name: 'Disk filling on db-2', level: 1 }).waitFor();
      await page.getByRole('list', { name: 'Timeline' }).getByText('Triggered').waitFor();
      await page.getByRole('button', { name: 'Merge other incidents into this one…' }).click();
      await page.getByRole('checkbox', { name: /Disk filling on db-3/ }).waitFor();
      for (const v of await seriousViolations(page)) violations.push(`${width}-${scheme}: ${v}`);
      await page.screenshot({ path: path.join(SHOTS, `im-incident-a11y-${width}-${scheme}.png`), fullPage: true });
    }
    expect(violations).to.deep.equal([]);
  });
});
