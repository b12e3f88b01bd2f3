import { expect } from 'chai';
import { RunWatches } from '../../../src/application/watches/run-watches';
import { WATCH_MAINTENANCE, WATCH_TARGETS, type WatchMaintenance, type WatchTargets } from '../../../src/application/watches/ports';
import { WATCH_RESULT_STORE, type WatchResultStore } from '../../../src/application/tenancy/ports';
import { DIRECT_DELIVERIES, type DirectDeliveries } from '../../../src/application/notifications/ports';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../src/application/shared/transaction';
import { RunCheck } from '../../../src/application/checks/run-check';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { useLoopbackChecks } from '../../support/loopback-checks';
import { DnsPeer } from '../../support/peers/dns-peer';
import { RdapPeer } from '../../support/peers/rdap-peer';
import { testClock } from '../../support/test-clock';
import { testServer } from '../../support/test-server';

describe('watches: customer domains and IPs are looked up and their expiry / dnsbl objects filled', () => {
  const suffix = `${Date.now() % 100000}`;
  const domain = `shop-${suffix}.test`;
  const dns = new DnsPeer({ '2.0.0.127.bl.test': { A: ['127.0.0.2'], TXT: ['Listed for spam'] } });
  const rdap = new RdapPeer();

  before(async () => {
    await Promise.all([dns.start(), rdap.start()]);
    rdap.rdapDomains.set(domain, { expiresAt: '2099-01-01T00:00:00Z', registrar: 'Example Registrar' });
    await useLoopbackChecks({
      dnsServers: [dns.address],
      dnsblZones: [{ zone: 'bl.test', name: 'Test BL', delistUrl: 'https://bl.test/delist' }],
      rdapBootstrapUrl: rdap.bootstrapUrl,
      whoisServer: rdap.whoisServer,
    });
  });
  after(() => Promise.all([dns.stop(), rdap.stop()]));

  async function runWatches() {
    const { container } = await testServer();
    const runCheck = container.get(RunCheck);
    const watches = new RunWatches(
      container.get<WatchTargets>(WATCH_TARGETS),
      container.get<WatchResultStore>(WATCH_RESULT_STORE),
      (request) => runCheck.execute(request),
      testClock,
      {
        maintenance: container.get<WatchMaintenance>(WATCH_MAINTENANCE),
        directs: container.get<DirectDeliveries>(DIRECT_DELIVERIES),
        transactions: container.get<TransactionRunner>(TRANSACTION_RUNNER),
      },
    );
    // One unit of work per run, as the job runner gives every job.
    return watches.execute();
  }

  it('fills the expiry of a new domain and the dnsbl listing of a new IP, then waits for their next turn', async () => {
    const org = await anOrganization('watches');
    const customer = await api('POST', '/api/customers', { token: org.token, body: { name: 'Shop', email: 'ops@shop.example' } });
    expect(customer.status).to.equal(200);
    const customerId = customer.body.customer.publicId;
    const createdDomain = await api('POST', `/api/customers/${customerId}/domains`, {
      token: org.token,
      body: { label: 'Shop', domainName: domain },
    });
    expect(createdDomain.status, JSON.stringify(createdDomain.body)).to.be.oneOf([200, 201]);
    const createdIp = await api('POST', `/api/customers/${customerId}/ips`, {
      token: org.token,
      body: { label: 'Mail', ipAddress: '127.0.0.2' },
    });
    expect(createdIp.status, JSON.stringify(createdIp.body)).to.be.oneOf([200, 201]);

    const before = await api('GET', `/api/customer-domains/${createdDomain.body.publicId}`, { token: org.token });
    expect(before.body.expiry.domainExpiresAt).to.equal(null);

    const swept = await runWatches();
    expect(swept.domains).to.be.greaterThan(0);
    expect(swept.ips).to.be.greaterThan(0);

    const checkedDomain = await api('GET', `/api/customer-domains/${createdDomain.body.publicId}`, { token: org.token });
    expect(checkedDomain.body.expiry).to.include({ domainRegistrar: 'Example Registrar', isExpired: false, lastError: null });
    expect(checkedDomain.body.expiry.domainExpiresAt).to.equal('2099-01-01T00:00:00.000Z');
    expect(checkedDomain.body.expiry.lastCheckedAt).to.be.a('string');

    const checkedIp = await api('GET', `/api/customer-ips/${createdIp.body.publicId}`, { token: org.token });
    expect(checkedIp.body.dnsbl).to.include({ isListed: true, listedCount: 1 });
    expect(checkedIp.body.dnsbl.listings[0]).to.include({
      name: 'Test BL',
      listKey: 'bl.test',
      reason: 'Listed for spam',
      delistUrl: 'https://bl.test/delist',
      resultCode: '127.0.0.2',
    });
    expect(checkedIp.body.dnsbl.lastListedAt).to.be.a('string');

    const again = await runWatches();
    expect(again).to.deep.equal({ domains: 0, ips: 0 });
  });
});
