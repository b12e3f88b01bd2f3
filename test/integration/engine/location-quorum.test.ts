import { expect } from 'chai';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aMonitoredCustomer, aWebsite } from '../../support/monitoring-fixtures';
import { aProcessServing, aResult, record, type MonitorRow, type ServingProcess } from '../../support/results-fixtures';
import { testServer } from '../../support/test-server';
import { testClock } from '../../support/test-clock';
import { NoticeLocationSilence } from '../../../src/application/incidents/notice-location-silence';

const SECOND = 1000;

/** The liveness job, as Agenda runs it (its own unit of work). */
async function noticeSilence() {
  const app = await testServer();
  return app.container.get(NoticeLocationSilence).execute();
}

/**
 * Quorum and honesty on PostgreSQL, through the API: a website checked from two locations, both of
 * which must agree (alertLocationThresholdCount 2). One location's only check process lapses (its
 * network failed): the other's failures alone open nothing, the website shows unknown with the
 * silent location, and the organization's audit log says why; when it comes back the rules decide again.
 */
describe('quorum and honesty: a location whose check processes are all silent is unknown, not down', () => {
  // us-east and ap-southeast are served by these processes alone (the engine tests' dispatchers serve eu-west).
  let eu: ServingProcess;
  let us: ServingProcess;
  let ap: ServingProcess;
  before(async () => {
    eu = await aProcessServing(['eu-west']);
    us = await aProcessServing(['us-east']);
    ap = await aProcessServing(['ap-southeast']);
  });
  after(async () => {
    await eu.remove();
    await us.remove();
    await ap.remove();
  });

  it("opens nothing on one location's failures while the other is silent, shows unknown with the reason, tells the organization, and decides again once it is back", async () => {
    const org = await anOrganization('quorum');
    const customer = await aMonitoredCustomer(org.token);
    const site = await aWebsite(org.token, {
      customerId: customer.id,
      name: 'Shop',
      locations: ['eu-west', 'us-east'],
      alertConsecutiveChecks: 1,
      alertLocationThresholdCount: 2,
    });
    const monitor: MonitorRow = {
      id: site.id,
      publicId: site.publicId,
      organizationId: org.user.organizationId,
      customerId: customer.id,
      checkIntervalSeconds: site.checkInterval * 60,
    };
    const show = async () => (await api('GET', `/api/websites/${site.publicId}`, { token: org.token })).body.currentState;
    const openIncidents = async () =>
      (await api('GET', '/api/incidents', { token: org.token, query: { status: 'open', monitorId: String(site.id) } })).body.total;
    const entries = async (action: string) =>
      (await api('GET', '/api/audit-log', { token: org.token, query: { resourceId: site.publicId, action } })).body.items;
    let at = testClock.now().getTime() - 10 * 60 * SECOND;
    const next = () => new Date((at += SECOND));

    expect(await show(), 'before any result').to.include({ status: 'unknown', reason: 'noResults' });
    await record(monitor, 'eu-west', aResult('up', next()));
    await record(monitor, 'us-east', aResult('up', next()));
    await noticeSilence();
    expect(await entries('monitor.stateUnknown')).to.deep.equal([]);
    expect(await show()).to.deep.equal({ status: 'up', reason: null, silentLocations: [], unknownSince: null });

    // us-east's network fails: its only check process stops renewing its lease.
    await us.lapse();
    const lapsedAt = testClock.now();
    const noticed = await noticeSilence();
    expect(noticed.becameUnknown).to.be.at.least(1);
    const unknown = await show();
    expect(unknown).to.deep.include({ status: 'unknown', reason: 'silentLocations', silentLocations: ['us-east'] });
    expect(new Date(unknown.unknownSince).getTime()).to.be.at.least(lapsedAt.getTime());

    const [told] = await entries('monitor.stateUnknown');
    expect(told).to.deep.include({ resourceType: 'monitor', resourceId: site.publicId, customerId: customer.id });
    expect(told.actor).to.deep.equal({ type: 'system', userId: null, label: 'system', credential: { type: null, id: null } });
    expect(told.changes).to.deep.equal({
      state: { before: 'up', after: 'unknown' },
      silentLocations: { before: [], after: ['us-east'] },
    });

    // eu-west alone fails: one location cannot make the two that must agree.
    const first = await record(monitor, 'eu-west', aResult('down', next()));
    const second = await record(monitor, 'eu-west', aResult('down', next()));
    expect([first.decisions, second.decisions]).to.deep.equal([[], []]);
    expect(await openIncidents()).to.equal(0);

    // Once per transition: the next run tells nothing new.
    await noticeSilence();
    expect(await entries('monitor.stateUnknown')).to.have.length(1);

    // us-east is back: the monitor is known again, and the rules decide as usual.
    await us.revive();
    await noticeSilence();
    const [known] = await entries('monitor.stateKnown');
    expect(known.changes).to.deep.equal({
      state: { before: 'unknown', after: 'up' },
      silentLocations: { before: ['us-east'], after: [] },
    });
    expect(await show()).to.deep.equal({ status: 'up', reason: null, silentLocations: [], unknownSince: null });
    const agreed = await record(monitor, 'us-east', aResult('down', next()));
    expect(agreed.decisions).to.deep.equal(['open']);
    expect(await openIncidents()).to.equal(1);
    expect(await show()).to.include({ status: 'down', reason: null });
  });

  it('keeps an open incident open while too few locations are live, and shows the monitor unknown rather than down', async () => {
    const org = await anOrganization('quorum');
    const customer = await aMonitoredCustomer(org.token);
    const site = await aWebsite(org.token, { customerId: customer.id, locations: ['ap-southeast'], alertConsecutiveChecks: 1 });
    const monitor: MonitorRow = {
      id: site.id,
      publicId: site.publicId,
      organizationId: org.user.organizationId,
      customerId: customer.id,
      checkIntervalSeconds: site.checkInterval * 60,
    };
    const at = testClock.now().getTime() - 5 * 60 * SECOND;
    expect((await record(monitor, 'ap-southeast', aResult('down', new Date(at)))).decisions).to.deep.equal(['open']);
    await ap.lapse();
    await noticeSilence();
    const shown = await api('GET', `/api/websites/${site.publicId}`, { token: org.token });
    expect(shown.body.currentState).to.deep.include({ status: 'unknown', reason: 'silentLocations', silentLocations: ['ap-southeast'] });
    const open = await api('GET', '/api/incidents', { token: org.token, query: { status: 'open', monitorId: String(site.id) } });
    expect(open.body.total, 'silence resolves nothing').to.equal(1);
    // Its public status page does not claim it down either.
    const slug = `quorum-${Math.random().toString(36).slice(2, 10)}`;
    const page = await api('POST', '/api/status-pages', {
      token: org.token,
      body: { title: 'Shop status', slug, groups: [{ name: 'Web', components: [{ type: 'monitor', id: site.publicId, name: 'Shop' }] }] },
    });
    expect(page.status, JSON.stringify(page.body)).to.equal(201);
    const component = async () => (await api('GET', `/api/public/status-pages/${slug}`)).body.groups[0].components[0].state;
    expect(await component()).to.equal('unknown');

    await ap.revive();
    await noticeSilence();
    expect((await api('GET', `/api/websites/${site.publicId}`, { token: org.token })).body.currentState).to.include({ status: 'down' });
    testClock.advance(6_000); // past the public page's refresh (STATUS_PAGE_REFRESH_MS)
    expect(await component()).to.equal('down');
  });
});
