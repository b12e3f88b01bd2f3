import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow, aCustomerToken } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, record, type MonitorRow } from '../../../support/results-fixtures';
import { testClock } from '../../../support/test-clock';

const MINUTE = 60_000;
const slug = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}`;

/** Results a minute apart ending an hour ago (so the figures no longer move): 50 up, then 10 down in the middle. */
async function someResults(monitor: MonitorRow) {
  const start = new Date(testClock.now().getTime() - 2 * 60 * MINUTE);
  for (let m = 0; m < 60; m += 1)
    await record(monitor, 'eu', aResult(m >= 20 && m < 30 ? 'down' : 'up', new Date(start.getTime() + m * MINUTE)));
}

async function anObjective(token: string, monitor: MonitorRow, name: string) {
  const created = await api('POST', '/api/service-levels', {
    token,
    body: { name, target: 99.5, window: 'rolling7d', subject: { type: 'website', websiteId: monitor.publicId } },
  });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  return created.body as { id: string; name: string };
}

describe('status pages: service level objectives shown', () => {
  it("shows a chosen objective's attainment on the public page, as the service levels API measures it; audited", async () => {
    const org = await anOrganization('page-slo');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { name: 'Checkout API' });
    await someResults(monitor);
    const objective = await anObjective(org.token, monitor, 'Checkout availability');
    const page = await api('POST', '/api/status-pages', {
      token: org.token,
      body: { title: 'Acme', slug: slug('acme-slo'), objectives: [objective.id] },
    });
    expect(page.status, JSON.stringify(page.body)).to.equal(201);
    expect(page.body.objectives).to.deep.equal([{ id: objective.id, name: 'Checkout availability' }]);
    expect((await api('GET', `/api/status-pages/${page.body.id}`, { token: org.token })).body.objectives).to.deep.equal(
      page.body.objectives,
    );

    const status = await api('GET', `/api/service-levels/${objective.id}/status`, { token: org.token });
    expect(status.status).to.equal(200);
    expect(status.body.attainmentPercent).to.be.a('number').and.lessThan(99.5);
    const json = await api('GET', `/status/${page.body.slug}/index.json`);
    expect(json.status).to.equal(200);
    expect(json.body.objectives).to.have.length(1);
    expect(json.body.objectives[0]).to.deep.include({
      id: objective.id,
      name: 'Checkout availability',
      subject: { type: 'monitor', name: 'Checkout API' },
      target: 99.5,
      window: 'rolling7d',
      attainmentPercent: status.body.attainmentPercent,
      met: false,
    });
    const html = await api('GET', `/status/${page.body.slug}`);
    expect(html.text).to.include('Service levels');
    expect(html.text).to.include(`data-objective="${objective.id}" data-met="false"`);
    expect(html.text).to.include(`${status.body.attainmentPercent}%`);
    expect(html.text).to.include('Checkout API · target 99.5% · last 7 days · missed');

    // The page change is in the audit log with the objectives it names (internal ids, as stored).
    const changed = await api('PATCH', `/api/status-pages/${page.body.id}`, { token: org.token, body: { objectives: [] } });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body.objectives).to.deep.equal([]);
    const audit = await api('GET', '/api/audit-log', { token: org.token, query: { resourceType: 'statusPage' } });
    const entry = audit.body.items.find((e: { action: string; changes: Record<string, unknown> }) => e.action === 'updated');
    expect(entry, JSON.stringify(audit.body.items)).to.not.equal(undefined);
    expect(entry.changes.objectives.after).to.deep.equal([]);
    expect(entry.changes.objectives.before).to.have.length(1);
    // The public page is rebuilt when the service next looks for changes (STATUS_PAGE_REFRESH_MS, 5 s by default).
    testClock.advance(6_000);
    expect((await api('GET', `/status/${page.body.slug}/index.json`)).body.objectives).to.deep.equal([]);
  });

  it("drops a deleted objective from the page, and refuses another customer's or organization's objective with a 404", async () => {
    const org = await anOrganization('page-slo-scope');
    const mine = await aCustomerRow(org.user.organizationId);
    const theirs = await aCustomerRow(org.user.organizationId);
    const myObjective = await anObjective(org.token, await aMonitorRow(org.user.organizationId, mine), 'Mine');
    const theirObjective = await anObjective(org.token, await aMonitorRow(org.user.organizationId, theirs), 'Theirs');
    const stranger = await anOrganization('page-slo-stranger');
    const strangers = await anObjective(
      stranger.token,
      await aMonitorRow(stranger.user.organizationId, await aCustomerRow(stranger.user.organizationId)),
      'Stranger',
    );

    // A customer's page (made by the organization) may name only that customer's objectives.
    const body = (objectives: string[]) => ({ title: 'Mine', slug: slug('mine'), customerId: String(mine), objectives });
    const refused = await api('POST', '/api/status-pages', { token: org.token, body: body([theirObjective.id]) });
    expectError(refused, 404, 'serviceLevelObjectiveNotFound');
    expectError(
      await api('POST', '/api/status-pages', { token: org.token, body: body([strangers.id]) }),
      404,
      'serviceLevelObjectiveNotFound',
    );
    const page = await api('POST', '/api/status-pages', { token: org.token, body: body([myObjective.id]) });
    expect(page.status, JSON.stringify(page.body)).to.equal(201);
    expectError(
      await api('PATCH', `/api/status-pages/${page.body.id}`, { token: org.token, body: { objectives: [theirObjective.id] } }),
      404,
      'serviceLevelObjectiveNotFound',
    );
    // A customer-scoped caller cannot even see the other customer's objective.
    const customerToken = await aCustomerToken(org.token, mine);
    expectError(
      await api('PATCH', `/api/status-pages/${page.body.id}`, { token: customerToken, body: { objectives: [theirObjective.id] } }),
      404,
      'serviceLevelObjectiveNotFound',
    );
    const both = await api('PATCH', `/api/status-pages/${page.body.id}`, {
      token: customerToken,
      body: { objectives: [myObjective.id, myObjective.id] },
    });
    expectError(both, 400, 'validationFailed');
    // The organization's own page may show any of its customers' objectives, in the order given.
    const orgPage = await api('POST', '/api/status-pages', {
      token: org.token,
      body: { title: 'All', slug: slug('all'), objectives: [theirObjective.id, myObjective.id] },
    });
    expect(orgPage.body.objectives.map((o: { name: string }) => o.name)).to.deep.equal(['Theirs', 'Mine']);

    expect((await api('DELETE', `/api/service-levels/${theirObjective.id}`, { token: org.token })).status).to.be.oneOf([200, 204]);
    expect((await api('GET', `/api/status-pages/${orgPage.body.id}`, { token: org.token })).body.objectives).to.deep.equal([
      { id: myObjective.id, name: 'Mine' },
    ]);
    const json = await api('GET', `/status/${orgPage.body.slug}/index.json`);
    expect(json.body.objectives.map((o: { id: string }) => o.id)).to.deep.equal([myObjective.id]);
    // Nothing known yet: shown, without a figure.
    expect(json.body.objectives[0]).to.deep.include({ attainmentPercent: null, met: null });
  });
});
