import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitor, aMonitoredCustomer, aMonitorPackage, PUBLIC_URL } from '../../../support/monitoring-fixtures';
import { wsm } from '../../../support/wsm';

/** An organization with one monitor of every kind, a customer tag and an organization-wide one. */
async function anOrganizationWithEveryKind() {
  const org = await anOrganization('wsm-round-trip');
  const pkg = await aMonitorPackage(org.token);
  const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
  const token = org.token;
  const customerId = customer.id;
  const tag = await api('POST', '/api/tags', { token, body: { name: 'Production', color: '#EF4444', customerId } });
  await api('POST', '/api/tags', { token, body: { name: 'Everywhere', color: '#3B82F6' } });
  const site = await api('POST', '/api/websites', {
    token,
    body: { customerId, url: PUBLIC_URL, name: 'Shop', keyword: 'ok', checkKeywordEnabled: true, headers: { 'X-Trace': 'wsm' } },
  });
  await api('POST', '/api/monitor-tags', {
    token,
    body: { tagId: tag.body.publicId, monitorId: site.body.publicId, monitorType: 'website' },
  });
  await api('POST', '/api/websites', {
    token,
    body: { customerId, monitoringType: 'heartbeat', name: 'Nightly backup', checkInterval: 1440 },
  });
  const chain = await api('POST', '/api/websites', {
    token,
    body: {
      customerId,
      monitoringType: 'api_chain',
      name: 'Login API',
      steps: [{ name: 'health', method: 'GET', url: PUBLIC_URL, headers: { Authorization: 'Bearer {{secrets.apiToken}}' } }],
      secrets: { apiToken: 'chain-s3cret' },
    },
  });
  if (chain.status !== 201) throw new Error(JSON.stringify(chain.body));
  await aMonitor(token, 'dns', { customerId, hostname: '_dmarc.monitor-fixture.com', recordType: 'TXT', expectedValues: ['v=DMARC1'] });
  await aMonitor(token, 'icmp', { customerId, hostname: 'www.monitor-fixture.com' });
  await aMonitor(token, 'tcp', { customerId, hostname: '93.184.216.34', port: 5432 });
  await aMonitor(token, 'smtp', { customerId, hostname: 'mail.monitor-fixture.com', tlsMode: 'implicit' });
  await aMonitor(token, 'ssh', { customerId, hostname: 'www.monitor-fixture.com', checkMode: 'tcp' });
  await aMonitor(token, 'ftp', { customerId, hostname: 'www.monitor-fixture.com', credentials: { username: 'u', password: 'p4ss' } });
  await aMonitor(token, 'imap-pop', { customerId, hostname: 'mail.monitor-fixture.com', protocol: 'pop3' });
  return { org, token, customer, pkg };
}

describe('wsm export, plan and apply: the round trip', () => {
  it('exports every kind and plans no change against the same service', async () => {
    const { token } = await anOrganizationWithEveryKind();
    const files = new Map<string, string>();
    const exported = await wsm(['export', '--file', 'org.yaml'], { token, files });
    expect(exported.code, exported.stderr).to.equal(0);
    const text = files.get('org.yaml')!;
    expect(text).not.to.include('p4ss').and.not.include('chain-s3cret');
    expect(text).to.match(/secrets:\n {6}apiToken: \$\{env:WSM_[0-9A-F_]+_SECRET_APITOKEN\}/);
    // The two websites share their common settings once, under defaults.website.
    expect(text).to.match(/^defaults:\n {2}website:\n/m);
    const plan = await wsm(['plan', '--file', 'org.yaml', '--detailed-exitcode'], { token, files });
    expect(plan.code, plan.stdout + plan.stderr).to.equal(0);
    expect(plan.stdout).to.equal('No changes: the service matches org.yaml.\n');
  });
});
