import { expect } from 'chai';
import { unlinkSync } from 'node:fs';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { aCustomerToken, aMember } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { aSolidPng, aWeekOfResults, firstPagePixels, firstPagePng, pdfText, pixelsNear } from '../../../support/reports-fixtures';
import { testClock } from '../../../support/test-clock';
import { testServer } from '../../../support/test-server';
import { RunDueReports } from '../../../../src/application/reports/run-due-reports';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const DAY = 86_400_000;
const REPORT_FIELDS = [
  'id',
  'name',
  'frequency',
  'weekday',
  'dayOfMonth',
  'timeOfDay',
  'timezone',
  'scope',
  'recipients',
  'mode',
  'threshold',
  'slaTarget',
  'enabled',
  'nextRunAt',
  'createdAt',
  'updatedAt',
];
const RUN_FIELDS = [
  'id',
  'reportId',
  'customerId',
  'trigger',
  'slot',
  'periodFrom',
  'periodTo',
  'status',
  'hasPdf',
  'summary',
  'recipients',
  'error',
  'startedAt',
  'finishedAt',
];

/** Today's ISO weekday in UTC: a weekly report on it at 00:00 UTC has its latest slot today at midnight. */
const todayWeekday = () => ((testClock.now().getUTCDay() + 6) % 7) + 1;
const todayMidnight = () => new Date(Math.floor(testClock.now().getTime() / DAY) * DAY);

async function anAgency(label = 'reports') {
  const org = await anOrganization(label);
  const customer = await aCustomer(org.token, { name: 'Acme Shop GmbH' });
  const other = await aCustomer(org.token, { name: 'Other Customer' });
  const checkout = await aMonitorRow(org.user.organizationId, customer.id, {
    name: 'Checkout API',
    checkIntervalSeconds: 300,
    locations: ['eu'],
    consecutiveChecks: 2,
  });
  const blog = await aMonitorRow(org.user.organizationId, other.id, { name: 'Company Blog', checkIntervalSeconds: 300, locations: ['eu'] });
  return { org, customer, other, checkout, blog };
}

const weekly = (extra: Record<string, unknown> = {}) => ({
  name: 'Weekly SLA',
  frequency: 'weekly',
  weekday: todayWeekday(),
  timeOfDay: '00:00',
  timezone: 'UTC',
  ...extra,
});

describe('Reports API', () => {
  it('creates a report, reads it back, lists, changes and deletes it; another organization gets reportNotFound', async () => {
    const { org, customer, checkout } = await anAgency();
    const created = await api('POST', '/api/organization/reports', {
      token: org.token,
      body: {
        name: 'Monthly SLA',
        frequency: 'monthly',
        dayOfMonth: 3,
        timeOfDay: '07:30',
        timezone: 'Europe/Berlin',
        scope: { customers: [customer.publicId], monitors: [String(checkout.id)] },
        recipients: ['Ops@Agency.example'],
        mode: 'threshold',
        threshold: 99.5,
        slaTarget: 99.9,
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.have.all.keys(REPORT_FIELDS);
    expect(created.body).to.deep.include({
      name: 'Monthly SLA',
      frequency: 'monthly',
      weekday: null,
      dayOfMonth: 3,
      timeOfDay: '07:30',
      timezone: 'Europe/Berlin',
      scope: { customers: [customer.publicId], monitors: [checkout.publicId], tags: [] },
      recipients: ['ops@agency.example'],
      mode: 'threshold',
      threshold: 99.5,
      slaTarget: 99.9,
      enabled: true,
    });
    const next = new Date(created.body.nextRunAt);
    expect(next.getTime()).to.be.greaterThan(testClock.now().getTime());
    expect(next.toLocaleString('en-GB', { timeZone: 'Europe/Berlin', day: 'numeric', hour: '2-digit', minute: '2-digit' })).to.match(
      /^3,? 07:30$/,
    );

    const id = created.body.id;
    expect((await api('GET', `/api/organization/reports/${id}`, { token: org.token })).body).to.deep.equal(created.body);
    expect((await api('GET', '/api/organization/reports', { token: org.token })).body.items).to.deep.equal([created.body]);

    const patched = await api('PATCH', `/api/organization/reports/${id}`, {
      token: org.token,
      body: { frequency: 'weekly', weekday: 5, mode: 'always' },
    });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body).to.deep.include({ frequency: 'weekly', weekday: 5, dayOfMonth: null, mode: 'always', threshold: 99.5 });
    expect((await api('GET', `/api/organization/reports/${id}`, { token: org.token })).body).to.deep.equal(patched.body);

    const stranger = await anOrganization('stranger');
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      expectError(await api(method, `/api/organization/reports/${id}`, { token: stranger.token, body }), 404, 'reportNotFound');
    }
    expectError(await api('POST', `/api/organization/reports/${id}/run`, { token: stranger.token }), 404, 'reportNotFound');
    expectError(
      await api('GET', '/api/organization/report-runs', { token: stranger.token, query: { reportId: id } }),
      404,
      'reportNotFound',
    );

    const deleted = await api('DELETE', `/api/organization/reports/${id}`, { token: org.token });
    expect(deleted.body).to.deep.equal({ success: true, id });
    expectError(await api('GET', `/api/organization/reports/${id}`, { token: org.token }), 404, 'reportNotFound');
  });

  it('answers invalidReportSchedule and invalidReportScope as the spec names them', async () => {
    const { org, customer } = await anAgency();
    const create = (body: Record<string, unknown>) =>
      api('POST', '/api/organization/reports', { token: org.token, body: { name: 'R', ...body } });
    const weeklyWithout = await create({ frequency: 'weekly' });
    expectError(weeklyWithout, 400, 'invalidReportSchedule');
    expect(weeklyWithout.body.data).to.deep.equal({ code: 'invalidReportSchedule', field: '/weekday' });
    expectError(await create({ frequency: 'monthly' }), 400, 'invalidReportSchedule');
    expectError(await create({ frequency: 'monthly', dayOfMonth: 29 }), 400, 'invalidReportSchedule');
    expectError(await create({ frequency: 'monthly', dayOfMonth: '5' }), 400, 'invalidReportSchedule');
    expectError(await create({ frequency: 'weekly', weekday: 8 }), 400, 'invalidReportSchedule');

    const noThreshold = await create({ frequency: 'weekly', weekday: 1, mode: 'threshold' });
    expectError(noThreshold, 400, 'invalidReportScope');
    expect(noThreshold.body.data).to.deep.equal({ code: 'invalidReportScope', field: '/threshold' });

    const stranger = await anOrganization('stranger');
    const foreignCustomer = await aCustomer(stranger.token);
    const foreignMonitor = await aMonitorRow(stranger.user.organizationId, foreignCustomer.id);
    const foreignTag = await api('POST', '/api/tags', { token: stranger.token, body: { name: 'prod', color: '#10b981' } });
    const foreign = await create({
      frequency: 'weekly',
      weekday: 1,
      scope: {
        customers: [customer.publicId, foreignCustomer.publicId],
        monitors: [foreignMonitor.publicId],
        tags: [foreignTag.body.publicId ?? foreignTag.body.id],
      },
    });
    expectError(foreign, 400, 'invalidReportScope');
    expect(foreign.body.data.unknown).to.deep.equal({
      customers: [foreignCustomer.publicId],
      monitors: [foreignMonitor.publicId],
      tags: [foreignTag.body.publicId ?? foreignTag.body.id],
    });
    expectError(await create({ frequency: 'weekly', weekday: 1, scope: { monitors: ['no-such-id'] } }), 400, 'invalidReportScope');

    const created = await create({ frequency: 'weekly', weekday: 1 });
    expectError(
      await api('PATCH', `/api/organization/reports/${created.body.id}`, { token: org.token, body: { frequency: 'monthly' } }),
      400,
      'invalidReportSchedule',
    );
    expectError(
      await api('PATCH', `/api/organization/reports/${created.body.id}`, { token: org.token, body: { mode: 'threshold' } }),
      400,
      'invalidReportScope',
    );
    expect((await api('GET', `/api/organization/reports/${created.body.id}`, { token: org.token })).body).to.include({
      frequency: 'weekly',
      mode: 'always',
    });
    const badZone = await create({ frequency: 'weekly', weekday: 1, timezone: 'Mars/Olympus' });
    expectError(badZone, 400, 'validationFailed');
  });

  it('is organization-wide: customer-scoped callers get 403 customerScopedTokenForbidden, read-only members may read but not write', async () => {
    const { org, customer } = await anAgency();
    const customerToken = await aCustomerToken(org.token, customer.id);
    expectError(await api('GET', '/api/organization/reports', { token: customerToken }), 403, 'customerScopedTokenForbidden');
    expectError(
      await api('POST', '/api/organization/reports', { token: customerToken, body: weekly() }),
      403,
      'customerScopedTokenForbidden',
    );
    expectError(await api('GET', '/api/organization/report-runs', { token: customerToken }), 403, 'customerScopedTokenForbidden');
    const readonly = await aMember(org, 'readonly');
    expectError(await api('POST', '/api/organization/reports', { token: readonly.token, body: weekly() }), 403, 'roleForbidden');
    expect((await api('GET', '/api/organization/reports', { token: readonly.token })).status).to.equal(200);
    const editor = await aMember(org, 'editor');
    expect((await api('POST', '/api/organization/reports', { token: editor.token, body: weekly() })).status).to.equal(201);
  });

  it('runs a report now: archives a PDF whose first page shows the organization, each monitor and the seeded uptime, drawn as an image', async function () {
    this.timeout(60_000);
    const app = await testServer();
    const { org, checkout } = await anAgency('northwind');
    const [{ name: organizationName }] = await app.database.sql.query<{ name: string }>(
      sql`SELECT name FROM organizations WHERE id = ${org.user.organizationId}`,
    );
    const period = { from: new Date(todayMidnight().getTime() - 7 * DAY), to: todayMidnight() };
    // Checkout: down for one hour (12 results of 5 minutes) on the third day; the blog: never checked.
    await aWeekOfResults(app, checkout, period, { at: 2 * 288 + 120, count: 12 });

    const created = await api('POST', '/api/organization/reports', {
      token: org.token,
      body: weekly({ name: 'Weekly SLA', slaTarget: 99.9 }),
    });
    const run = await api('POST', `/api/organization/reports/${created.body.id}/run`, { token: org.token });
    expect(run.status, JSON.stringify(run.body)).to.equal(201);
    expect(run.body).to.have.all.keys(RUN_FIELDS);
    expect(run.body).to.deep.include({
      reportId: created.body.id,
      customerId: null,
      trigger: 'manual',
      slot: null,
      status: 'completed',
      hasPdf: true,
      error: null,
      periodFrom: period.from.toISOString(),
      periodTo: period.to.toISOString(),
      recipients: [],
    });
    // 604,800 s observed, 3,600 s of them down: 99.40 % of observed time; the blog, never checked, has no
    // figures at all (uptime covers the time actually monitored), so it adds no unknown time either.
    expect(run.body.summary).to.deep.equal({
      monitors: 2,
      uptimeOfKnownPercent: 99.4,
      unknownPercent: 0,
      lowestUptime: 99.4,
      incidents: 1,
      slaMissed: 1,
    });
    expect((await api('GET', `/api/organization/report-runs/${run.body.id}`, { token: org.token })).body).to.deep.equal(run.body);
    const listed = await api('GET', '/api/organization/report-runs', { token: org.token, query: { reportId: created.body.id } });
    expect(listed.body).to.deep.include({ total: 1, page: 1, perPage: 50 });
    expect(listed.body.items).to.deep.equal([run.body]);

    const pdf = await fetch(`${app.url}/api/organization/report-runs/${run.body.id}/pdf`, {
      headers: { authorization: `Bearer ${org.token}` },
    });
    expect(pdf.status).to.equal(200);
    expect(pdf.headers.get('content-type')).to.equal('application/pdf');
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).to.equal('%PDF-');

    const png = firstPagePng(bytes);
    expect(png.subarray(1, 4).toString()).to.equal('PNG');
    const page = firstPagePixels(bytes);
    expect(page.width).to.be.within(595, 596); // A4 at 72 dpi
    expect(page.height).to.be.within(841, 842);
    // The uptime chart: a green bar for the checkout (with a red sliver) and a grey one for the never-checked blog.
    expect(pixelsNear(page, '#2e9d57')).to.be.greaterThan(1000);
    expect(pixelsNear(page, '#d64541')).to.be.greaterThan(0);
    expect(pixelsNear(page, '#b8bec6')).to.be.greaterThan(1000);

    const first = pdfText(bytes, { first: 1, last: 1 });
    expect(first).to.include(organizationName!);
    expect(first).to.include('Weekly SLA');
    expect(first).to.match(/Uptime \(observed time\)\s+99\.40 %/);
    expect(first).to.match(/Checkout API\s+.*99\.40 %/);
    // Never checked: nothing is known of it, so its figures read unknown rather than 0 % or 100 %.
    expect(first).to.match(/Company Blog\s+.*unknown/);
    const all = pdfText(bytes);
    expect(all).to.match(/Checkout API\s+Acme Shop GmbH\s+99\.40 %\s+1 h 0 min\s+0\.00 %/);
    expect(all, all).to.match(/Company Blog\s+Other Customer\s+unknown\s+0\s?s\s+unknown/);
    expect(all).to.include('Cause: timeout: no answer within 30 s');
  });

  it('answers reportRunNoPdf for a threshold run nobody fell below, reportPdfNotFound when the file is gone, reportRunNotFound for none', async () => {
    const app = await testServer();
    const { org, checkout } = await anAgency();
    const period = { from: new Date(todayMidnight().getTime() - 7 * DAY), to: todayMidnight() };
    await aWeekOfResults(app, checkout, period, { at: 100, count: 1 });
    const quiet = await api('POST', '/api/organization/reports', {
      token: org.token,
      body: weekly({ mode: 'threshold', threshold: 90, scope: { monitors: [checkout.publicId] } }),
    });
    const skipped = await api('POST', `/api/organization/reports/${quiet.body.id}/run`, { token: org.token });
    expect(skipped.body).to.include({ status: 'skipped', hasPdf: false });
    const noPdf = await api('GET', `/api/organization/report-runs/${skipped.body.id}/pdf`, { token: org.token });
    expectError(noPdf, 400, 'reportRunNoPdf');
    expect(noPdf.body.data).to.deep.equal({ code: 'reportRunNoPdf', status: 'skipped' });

    const always = await api('POST', '/api/organization/reports', { token: org.token, body: weekly() });
    const made = await api('POST', `/api/organization/reports/${always.body.id}/run`, { token: org.token });
    const [row] = await app.database.sql.query<{ pdf_path: string }>(
      sql`SELECT pdf_path FROM report_runs WHERE public_id = ${made.body.id}`,
    );
    unlinkSync(row!.pdf_path);
    expectError(await api('GET', `/api/organization/report-runs/${made.body.id}/pdf`, { token: org.token }), 404, 'reportPdfNotFound');

    expectError(
      await api('GET', '/api/organization/report-runs/00000000-0000-4000-8000-000000000000', { token: org.token }),
      404,
      'reportRunNotFound',
    );
    expectError(
      await api('GET', '/api/organization/report-runs/00000000-0000-4000-8000-000000000000/pdf', { token: org.token }),
      404,
      'reportRunNotFound',
    );
    const stranger = await anOrganization('stranger');
    expectError(await api('GET', `/api/organization/report-runs/${made.body.id}`, { token: stranger.token }), 404, 'reportRunNotFound');
    expectError(await api('GET', `/api/organization/report-runs/${made.body.id}/pdf`, { token: stranger.token }), 404, 'reportRunNotFound');
  });

  it('makes a scheduled slot once when two workers race for it, and not again on the next pass', async () => {
    const app = await testServer();
    const { org } = await anAgency();
    const created = await api('POST', '/api/organization/reports', { token: org.token, body: weekly({ name: 'Raced' }) });
    // Defined before today's slot (midnight UTC), so the slot is due.
    await app.database.sql.query(
      sql`UPDATE report_definitions SET created_at = created_at - interval '2 days' WHERE public_id = ${created.body.id}`,
    );
    const due = () => app.container.get(RunDueReports).execute();
    await Promise.all([due(), due(), due()]);
    await due();
    const runs = await api('GET', '/api/organization/report-runs', { token: org.token, query: { reportId: created.body.id } });
    expect(runs.body.total).to.equal(1);
    expect(runs.body.items[0]).to.include({ trigger: 'schedule', slot: todayMidnight().toISOString(), status: 'completed', hasPdf: true });
  });

  it("leaves a suspended organization's slot until the organization is active again", async () => {
    const app = await testServer();
    const { org } = await anAgency();
    const created = await api('POST', '/api/organization/reports', { token: org.token, body: weekly({ name: 'Paused' }) });
    await app.database.sql.query(
      sql`UPDATE report_definitions SET created_at = created_at - interval '2 days' WHERE public_id = ${created.body.id}`,
    );
    const slotRuns = () => app.database.sql.query(sql`SELECT 1 FROM report_runs WHERE report_public_id = ${created.body.id}`);
    const due = () => app.container.get(RunDueReports).execute();
    await app.database.sql.query(sql`UPDATE organizations SET status = 'suspended' WHERE id = ${org.user.organizationId}`);
    await due();
    expect(await slotRuns()).to.have.length(0);
    await app.database.sql.query(sql`UPDATE organizations SET status = 'active' WHERE id = ${org.user.organizationId}`);
    await due();
    expect(await slotRuns()).to.have.length(1);
  });

  it("brands the first page with the organization's logo once set, and without it once removed; only PNG or JPEG is taken", async () => {
    const app = await testServer();
    const { org } = await anAgency();
    const MAGENTA = '#ff00ff';
    const report = await api('POST', '/api/organization/reports', { token: org.token, body: weekly() });
    const firstPage = async () => {
      const run = await api('POST', `/api/organization/reports/${report.body.id}/run`, { token: org.token });
      const pdf = await fetch(`${app.url}/api/organization/report-runs/${run.body.id}/pdf`, {
        headers: { authorization: `Bearer ${org.token}` },
      });
      return firstPagePixels(new Uint8Array(await pdf.arrayBuffer()));
    };
    expect(pixelsNear(await firstPage(), MAGENTA)).to.equal(0);

    const set = await api('PUT', '/api/organization/report-logo', {
      token: org.token,
      body: { image: aSolidPng(110, 50, MAGENTA).toString('base64') },
    });
    expect(set.status, JSON.stringify(set.body)).to.equal(204);
    // Fitted into 110 x 50 points at the top left: thousands of magenta pixels at 72 dpi.
    expect(pixelsNear(await firstPage(), MAGENTA)).to.be.greaterThan(4000);

    const gif = await api('PUT', '/api/organization/report-logo', {
      token: org.token,
      body: { image: Buffer.from('GIF89a-not-a-logo').toString('base64') },
    });
    expectError(gif, 400, 'validationFailed');
    expect(gif.body.data.issues[0].path).to.deep.equal(['image']);
    const readonly = await aMember(org, 'readonly');
    expectError(await api('PUT', '/api/organization/report-logo', { token: readonly.token, body: { image: null } }), 403, 'roleForbidden');

    expect((await api('PUT', '/api/organization/report-logo', { token: org.token, body: { image: null } })).status).to.equal(204);
    expect(pixelsNear(await firstPage(), MAGENTA)).to.equal(0);
  });
});
