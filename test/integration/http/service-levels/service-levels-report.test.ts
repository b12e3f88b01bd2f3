import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { aMonitorRow } from '../../../support/results-fixtures';
import { aWeekOfResults, pdfText } from '../../../support/reports-fixtures';
import { testClock } from '../../../support/test-clock';
import { testServer } from '../../../support/test-server';

const DAY = 86_400_000;
const todayMidnight = () => new Date(Math.floor(testClock.now().getTime() / DAY) * DAY);

describe('service level objectives in reports', () => {
  it("shows each objective covering the report's monitors with the figures the status API gives for the period", async function () {
    this.timeout(60_000);
    const app = await testServer();
    const org = await anOrganization('slo-report');
    const customer = await aCustomer(org.token, { name: 'Acme Shop GmbH' });
    const other = await aCustomer(org.token, { name: 'Other Customer' });
    const checkout = await aMonitorRow(org.user.organizationId, customer.id, { name: 'Checkout API', checkIntervalSeconds: 300 });
    const blog = await aMonitorRow(org.user.organizationId, other.id, { name: 'Company Blog', checkIntervalSeconds: 300 });
    const period = { from: new Date(todayMidnight().getTime() - 7 * DAY), to: todayMidnight() };
    // Down for one hour (12 results of 5 minutes) on the third day: an incident opens and resolves.
    await aWeekOfResults(app, checkout, period, { at: 2 * 288 + 120, count: 12 });
    const objective = async (name: string, subject: Record<string, unknown>, target: number) => {
      const created = await api('POST', '/api/service-levels', { token: org.token, body: { name, target, subject } });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      return created.body.id as string;
    };
    const shop = await objective('Shop promise', { type: 'customer', customerId: String(customer.id) }, 99.5);
    await objective('Blog promise', { type: 'website', websiteId: blog.publicId }, 99);

    const report = await api('POST', '/api/organization/reports', {
      token: org.token,
      body: {
        name: 'Weekly SLA',
        frequency: 'weekly',
        weekday: ((testClock.now().getUTCDay() + 6) % 7) + 1,
        timeOfDay: '00:00',
        timezone: 'UTC',
      },
    });
    expect(report.status, JSON.stringify(report.body)).to.equal(201);
    const run = await api('POST', `/api/organization/reports/${report.body.id}/run`, { token: org.token });
    expect(run.body.status, JSON.stringify(run.body)).to.equal('completed');
    const status = await api('GET', `/api/service-levels/${shop}/status`, {
      token: org.token,
      query: { from: period.from.toISOString(), to: period.to.toISOString() },
    });
    expect(status.status, JSON.stringify(status.body)).to.equal(200);
    // 3,600 s down of 604,800 s observed; the budget is 0.5 % of it (50.4 min), 60 min spent.
    expect(status.body).to.deep.include({ attainmentPercent: 99.4048, met: false, unknownPercent: 0 });
    expect(status.body.budget).to.deep.equal({ totalMinutes: 50.4, spentMinutes: 60, leftMinutes: -9.6, leftPercent: -19.05 });

    const pdf = await fetch(`${app.url}/api/organization/report-runs/${run.body.id}/pdf`, {
      headers: { authorization: `Bearer ${org.token}` },
    });
    const text = pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).to.include('Service level objectives');
    expect(text, text).to.match(/Shop promise\s+99\.5 %\s+99\.405 %\s+-9\.6 min \(-19\.05 %\)\s+60\.0 min\s+0\.00 %\s+missed/);
    expect(text).to.match(/Spent by Checkout API: .+, 1 h 0 min/);
    expect(text).to.match(/Blog promise\s+99 %\s+unknown\s+0\.0 min \(unknown\)\s+0\.0 min\s+unknown\s+unknown/);
  });
});
