import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApplication } from '../../../src/main/application';
import { aConsoleService, launchConsoleBrowser } from '../../support/console-browser';
import { apiAt } from '../../support/http-client';
import { uniqueEmail } from '../../support/builders';
import { setIncidentManagementSeenAt } from '../../support/im-fixtures';

const PASSWORD = 'a long passphrase';
const ROLES = ['admin', 'editor', 'readonly', 'responder'] as const;
type Role = (typeof ROLES)[number];

/** A fresh record of the organization's, made by its admin, for one probe (a probe may delete or change it). */
interface World {
  websiteId: string;
  incidentId: string;
  channelId: string;
  freshWebsite(): Promise<string>;
  freshIncident(): Promise<string>;
  freshChannel(): Promise<string>;
  /** An open incident of incident management, routed to no team (everyone's). */
  freshImIncident(): Promise<string>;
}

/**
 * What each control the console draws asks of the API, as a probe run with the role's own token on
 * a record of its own (so a probe that deletes leaves the walk's records alone): its HTTP status.
 * Controls that only move within the console (links to forms are probed as the act the form takes).
 */
type Probe = (w: World, call: (method: string, url: string, body?: unknown) => Promise<number>) => Promise<number>;
const ACTS: Record<string, Probe> = {
  'Check now': (w, call) => call('POST', `/api/websites/${w.websiteId}/trigger-check`),
  Pause: async (w, call) => call('PATCH', `/api/websites/${await w.freshWebsite()}`, { status: 'paused' }),
  'Delete…': async (w, call) => call('DELETE', `/api/websites/${await w.freshWebsite()}`),
  'Edit settings': async (w, call) => call('PATCH', `/api/websites/${await w.freshWebsite()}`, { name: 'Renamed' }),
  Acknowledge: async (w, call) => call('POST', `/api/incidents/${await w.freshIncident()}/acknowledge`),
  Resolve: async (w, call) => call('POST', `/api/incidents/${await w.freshIncident()}/resolve`),
  'Post update': async (w, call) => call('POST', `/api/incidents/${await w.freshIncident()}/updates`, { message: 'Looking' }),
  'Send a test message': async (w, call) => call('POST', `/api/notification-channels/${await w.freshChannel()}/test`),
  'Save channel': async (w, call) => call('PATCH', `/api/notification-channels/${await w.freshChannel()}`, { name: 'Renamed' }),
  'Add channel': async (_w, call) =>
    call('POST', '/api/notification-channels', { name: 'New', type: 'webhook', config: { url: `http://127.0.0.1:9/new/${Date.now()}` } }),
  Delete: async (w, call) => call('DELETE', `/api/notification-channels/${await w.freshChannel()}`),
};

/** The acts of incident management's incidents list (on-call, Incidents): the same names, its own routes. */
const IM_ACTS: Record<string, Probe> = {
  Acknowledge: async (w, call) => call('POST', `/api/im/incidents/${await w.freshImIncident()}/acknowledge`),
  Resolve: async (w, call) => call('POST', `/api/im/incidents/${await w.freshImIncident()}/resolve`),
  'Snooze an hour': async (w, call) =>
    call('POST', `/api/im/incidents/${await w.freshImIncident()}/snooze`, { snoozedUntil: new Date(Date.now() + 3_600_000).toISOString() }),
  'Escalate now': async (w, call) => call('POST', `/api/im/incidents/${await w.freshImIncident()}/escalate`),
};
const actsOf = (path: string) => (path.startsWith('/on-call/incidents') ? IM_ACTS : ACTS);

/** Controls that take no act of the API: the overview's state filters, the chart's periods, the incident list's tabs. */
const NO_ACT = [
  /^\d+ (Down|Degraded|Unknown|In maintenance|Paused|Up)$/,
  /^(Hour|Day|Week|30 days|90 days)$/,
  /^(Open and acknowledged|Resolved)$/,
  /^(Open|Closed|Refresh)$/,
];

/**
 * Every role walks the main screens in real Chromium; every control shown to it must be one the API
 * then lets that role use (a probe with its own session answers anything but 403). The console reads
 * what to show from the session's `can`, the table the API enforces.
 */
describe('console: every role sees only the controls the API lets it use', function () {
  this.timeout(300_000);
  let app: RunningApplication;
  let browser: Browser;
  const target = http.createServer((_req, res) => res.end('ok'));
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('thanks'));
  });
  let adminToken = '';
  let world: World;
  const tokens = new Map<Role, { email: string; token: string }>();
  const call = (token: string) => async (method: string, url: string, body?: unknown) =>
    (await apiAt(app.url, method, url, { token, body })).status;

  before(async () => {
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    app = await aConsoleService();
    browser = await launchConsoleBrowser();
    const adminEmail = uniqueEmail('walk');
    const signedUp = await apiAt(app.url, 'POST', '/api/auth/sign-up/email', {
      body: { name: 'Ada Admin', email: adminEmail, password: PASSWORD, organizationName: 'Walk' },
    });
    adminToken = signedUp.body.token as string;
    const asAdmin = (method: string, url: string, body?: unknown) => apiAt(app.url, method, url, { token: adminToken, body });
    const customer = (await asAdmin('POST', '/api/customers', { name: 'Harbour Co', email: 'ops@harbour.example' })).body.customer;
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    const freshWebsite = async () => {
      const site = await asAdmin('POST', '/api/websites', { customerId: customer.id, name: 'Harbour', url: targetUrl });
      expect(site.status, JSON.stringify(site.body)).to.equal(201);
      return site.body.publicId as string;
    };
    const websiteId = await freshWebsite();
    const freshIncident = async () => {
      const incident = await asAdmin('POST', '/api/incidents', { monitorId: websiteId, title: 'Checkout slow' });
      expect(incident.status, JSON.stringify(incident.body)).to.equal(201);
      return incident.body.publicId as string;
    };
    let hooks = 0;
    const freshChannel = async () => {
      const hook = await asAdmin('POST', '/api/notification-channels', {
        name: 'Ops hook',
        type: 'webhook',
        config: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook/${++hooks}` },
      });
      expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
      return hook.body.publicId as string;
    };
    // Incident management on, with an incident of its own: its list and acts are walked too.
    await setIncidentManagementSeenAt(app.url, adminToken, signedUp.body.user.organizationId as number, true);
    const freshImIncident = async () => {
      const incident = await asAdmin('POST', '/api/im/incidents', { title: 'Pager storm' });
      expect(incident.status, JSON.stringify(incident.body)).to.equal(201);
      return incident.body.id as string;
    };
    await freshImIncident();
    world = {
      websiteId,
      incidentId: await freshIncident(),
      channelId: await freshChannel(),
      freshWebsite,
      freshIncident,
      freshChannel,
      freshImIncident,
    };
    tokens.set('admin', { email: adminEmail, token: adminToken });
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      const email = uniqueEmail(role);
      const created = await asAdmin('POST', '/api/users', { name: `${role} user`, email, password: PASSWORD, role, customerId: null });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const signedIn = await apiAt(app.url, 'POST', '/api/auth/sign-in/email', { body: { email, password: PASSWORD } });
      tokens.set(role, { email, token: signedIn.body.token as string });
    }
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
    target.close();
    receiver.close();
  });

  /** The names of the controls shown in the screen's main part, once it has drawn. */
  async function controlsOf(page: Page, path: string, ready: string): Promise<string[]> {
    await page.goto(`${app.url}/app${path}`);
    await page.getByRole('heading', { name: ready }).first().waitFor();
    await page.waitForLoadState('networkidle');
    const names = await page.locator('main button:visible, main a.button-link:visible').allInnerTexts();
    return [...new Set(names.map((name) => name.trim()).filter(Boolean))];
  }

  /** A page of `context` signed in as `email` through the sign-in form, on the overview. */
  async function signedIn(context: BrowserContext, email: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${app.url}/app/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    return page;
  }

  for (const role of ROLES) {
    it(`${role}: every control on the monitors, incidents, channels and on-call screens (incident management's incidents too) is one the API lets it use`, async () => {
      const { email, token } = tokens.get(role)!;
      const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
      try {
        const page = await signedIn(context, email);
        const screens: Array<[string, string]> = [
          ['/', 'Overview'],
          [`/monitors/website/${world.websiteId}`, 'Harbour'],
          ['/incidents', 'Incidents'],
          [`/incidents/${world.incidentId}`, 'Checkout slow'],
          ['/channels', 'Notification channels'],
          [`/channels/${world.channelId}`, 'Ops hook'],
          ['/on-call', 'On-call'],
          ['/on-call/incidents', 'On-call'],
        ];
        const refused: string[] = [];
        const unknown: string[] = [];
        const seen: string[] = [];
        for (const [path, ready] of screens) {
          for (const control of await controlsOf(page, path, ready)) {
            seen.push(`${path}: ${control}`);
            if (NO_ACT.some((pattern) => pattern.test(control))) continue;
            const probe = actsOf(path)[control];
            if (!probe) {
              unknown.push(`${path}: ${control}`);
              continue;
            }
            const status = await probe(world, call(token));
            if (status === 403) refused.push(`${path}: ${control} (403)`);
          }
        }
        expect(unknown, 'controls the walk does not know: add what each asks of the API').to.deep.equal([]);
        // The walk reached incident management's incidents: those it serves see Escalate now, the others no IM act.
        expect(seen.includes('/on-call/incidents: Escalate now'), `${role} sees Escalate now`).to.equal(role !== 'readonly');
        expect(refused, `${role} is shown controls the API refuses`).to.deep.equal([]);
      } finally {
        await context.close();
      }
    });
  }
});
