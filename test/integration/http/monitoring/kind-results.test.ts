import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitor, aMonitoredCustomer, aWebsite } from '../../../support/monitoring-fixtures';
import { aResult, record } from '../../../support/results-fixtures';
import { testClock } from '../../../support/test-clock';

/**
 * A monitor's results, uptime, response times and "check now" under its kind's own path
 * (/api/monitors/{kind}/{id}/...): the same reads as under /api/websites/{id}, narrowed to that
 * kind, so another kind's id (or another organization's) is monitorNotFound.
 */
describe('per-kind result paths: /api/monitors/{kind}/{id}/check-history, uptime-stats, response-times, trigger-check', () => {
  // The shared test server starts with the first call: not this file's time to measure.
  before(async function () {
    this.timeout(60_000);
    await anOrganization('kind-results-warm-up');
  });

  async function aTcpMonitorWithAResult() {
    const org = await anOrganization('kind-results');
    const customer = await aMonitoredCustomer(org.token);
    const tcp = await aMonitor(org.token, 'tcp', { customerId: customer.id, hostname: '93.184.216.34', port: 443, locations: ['eu-west'] });
    const at = new Date(testClock.now().getTime() - 60_000);
    await record(
      { id: tcp.id, publicId: tcp.publicId, organizationId: tcp.organizationId, customerId: tcp.customerId, checkIntervalSeconds: 300 },
      'eu-west',
      aResult('up', at),
    );
    return { org, customer, tcp, at };
  }

  it('reads the results of a monitor of that kind', async () => {
    const { org, tcp, at } = await aTcpMonitorWithAResult();
    const base = `/api/monitors/tcp/${tcp.publicId}`;
    const history = await api('GET', `${base}/check-history`, { token: org.token });
    expect(history.status, JSON.stringify(history.body)).to.equal(200);
    expect(history.body.items.map((i: any) => [i.location, i.status, i.checkedAt])).to.deep.equal([['eu-west', 'up', at.toISOString()]]);
    const uptime = await api('GET', `${base}/uptime-stats`, { token: org.token, query: { period: '24h' } });
    expect(uptime.status, JSON.stringify(uptime.body)).to.equal(200);
    expect(uptime.body.period).to.equal('24h');
    expect(uptime.body.monitoredSince, 'its result counts').to.be.a('string');
    const series = await api('GET', `${base}/response-times`, { token: org.token, query: { period: '1h' } });
    expect(series.status, JSON.stringify(series.body)).to.equal(200);
    const checks = series.body.locations.flatMap((l: any) => l.points.map((p: any) => p.checks));
    expect(checks.reduce((a: number, b: number) => a + b, 0)).to.equal(1);
    const byLegacyId = await api('GET', `/api/monitors/tcp/${tcp.id}/check-history`, { token: org.token });
    expect(byLegacyId.body.total).to.equal(1);
  });

  it('queues a check now from the monitor locations', async () => {
    const { org, tcp } = await aTcpMonitorWithAResult();
    const triggered = await api('POST', `/api/monitors/tcp/${tcp.publicId}/trigger-check`, { token: org.token });
    expect(triggered.status, JSON.stringify(triggered.body)).to.equal(202);
    expect(triggered.body).to.deep.equal({
      websiteId: tcp.publicId,
      locations: ['eu-west'],
      triggered: 1,
      requestedAt: triggered.body.requestedAt,
    });
    expect(triggered.body.requestedAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("answers monitorNotFound for another kind's id and another organization's monitor", async () => {
    const { org, customer, tcp } = await aTcpMonitorWithAResult();
    const website = await aWebsite(org.token, { customerId: customer.id });
    for (const [path, method] of [
      [`/api/monitors/dns/${tcp.publicId}/check-history`, 'GET'],
      [`/api/monitors/dns/${tcp.publicId}/uptime-stats`, 'GET'],
      [`/api/monitors/ssh/${tcp.publicId}/response-times`, 'GET'],
      [`/api/monitors/icmp/${tcp.publicId}/trigger-check`, 'POST'],
      [`/api/monitors/tcp/${website.publicId}/check-history`, 'GET'],
    ] as const)
      expectError(await api(method, path, { token: org.token }), 404, 'monitorNotFound');
    const other = await anOrganization('kind-results-other');
    expectError(await api('GET', `/api/monitors/tcp/${tcp.publicId}/check-history`, { token: other.token }), 404, 'monitorNotFound');
    expectError(await api('POST', `/api/monitors/tcp/${tcp.publicId}/trigger-check`, { token: other.token }), 404, 'monitorNotFound');
    // The website paths keep answering for any kind, as they did.
    expect((await api('GET', `/api/websites/${tcp.publicId}/check-history`, { token: org.token })).body.total).to.equal(1);
  });
});
