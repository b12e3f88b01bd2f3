import { poolTx } from '../../../support/pool-transaction';
import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { anIp } from '../../../support/tenancy-fixtures';
import { withWatchResults } from '../../../support/tenancy-server';

const IP_FIELDS = [
  'id',
  'publicId',
  'customerId',
  'label',
  'ipAddress',
  'ipFamily',
  'status',
  'notificationPhoneNumber',
  'notificationEmail',
  'createdAt',
  'updatedAt',
];
const DNSBL_FIELDS = [
  'isListed',
  'listedCount',
  'listings',
  'lastError',
  'lastCheckedAt',
  'lastChangedAt',
  'lastListedAt',
  'lastCleanAt',
  'lastNotifiedListedAt',
  'lastNotifiedCleanAt',
];

describe('customer IPs', () => {
  it('adds IPv4 and IPv6 addresses in canonical form and refuses invalid ones', async () => {
    const org = await anOrganization();
    const customer = await aCustomer(org.token);
    const post = (ipAddress: string) => api('POST', `/api/customers/${customer.publicId}/ips`, { token: org.token, body: { ipAddress } });
    const v4 = await post(' 203.0.113.7 ');
    expect(v4.status).to.equal(201);
    expect(v4.body).to.have.all.keys(IP_FIELDS);
    expect(v4.body).to.include({
      ipAddress: '203.0.113.7',
      ipFamily: 'v4',
      label: '203.0.113.7',
      status: 'active',
      customerId: customer.id,
    });
    expect((await post('2001:0DB8:0000:0000:0000:0000:0000:0001')).body).to.include({ ipAddress: '2001:db8::1', ipFamily: 'v6' });
    expect((await post('::ffff:198.51.100.4')).body).to.include({ ipAddress: '198.51.100.4', ipFamily: 'v4' });
    expectError(await post('2001:db8::1'), 409, 'customerIpExists');
    for (const bad of ['256.1.1.1', '010.1.1.1', '1.2.3', '2001:db8:::1', 'fe80::1%eth0', 'example.com', '']) {
      const response = await post(bad);
      expectError(response, 400, 'validationFailed');
    }
  });

  it('serves the single record with its dnsbl: clean and empty until checked, then the listings the engine stored', async () => {
    const org = await anOrganization();
    const customer = await aCustomer(org.token);
    const ip = await anIp(org.token, customer.id);
    const unchecked = await api('GET', `/api/customer-ips/${ip.publicId}`, { token: org.token });
    expect(unchecked.body).to.have.all.keys([...IP_FIELDS, 'dnsbl']);
    expect(unchecked.body.dnsbl).to.have.all.keys(DNSBL_FIELDS);
    expect(unchecked.body.dnsbl).to.include({ isListed: false, listedCount: 0, lastCheckedAt: null, lastError: null });
    expect(unchecked.body.dnsbl.listings).to.deep.equal([]);

    const listing = {
      name: 'Spamhaus ZEN',
      reason: 'Listed in SBL',
      listKey: 'zen.spamhaus.org',
      delistUrl: 'https://check.spamhaus.org/',
      resultCode: '127.0.0.2',
    };
    const at = new Date('2026-11-21T08:30:00Z');
    await withWatchResults((store) =>
      store.recordIpDnsbl(
        { organizationId: org.user.organizationId, customerId: null },
        ip.id,
        {
          isListed: true,
          listedCount: 1,
          listings: [listing],
          lastError: null,
          lastCheckedAt: at,
          lastChangedAt: at,
          lastListedAt: at,
          lastCleanAt: null,
          lastNotifiedListedAt: null,
          lastNotifiedCleanAt: null,
        },
        undefined,
        poolTx(),
      ),
    );
    const checked = await api('GET', `/api/customer-ips/${ip.id}`, { token: org.token });
    expect(checked.body.dnsbl).to.include({ isListed: true, listedCount: 1, lastListedAt: '2026-11-21T08:30:00.000Z', lastCleanAt: null });
    expect(checked.body.dnsbl.listings).to.deep.equal([listing]);

    const moved = await api('PATCH', `/api/customer-ips/${ip.id}`, { token: org.token, body: { ipAddress: '192.0.2.10' } });
    expect(moved.body).to.include({ ipAddress: '192.0.2.10', ipFamily: 'v4' });
    expect((await api('GET', `/api/customer-ips/${ip.id}`, { token: org.token })).body.dnsbl.isListed).to.equal(false);
  });

  it('ignores results for an IP of another organization', async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const ip = await anIp(org.token, (await aCustomer(org.token)).id);
    await withWatchResults((store) =>
      store.recordIpDnsbl(
        { organizationId: other.user.organizationId, customerId: null },
        ip.id,
        {
          isListed: true,
          listedCount: 0,
          listings: [],
          lastError: null,
          lastCheckedAt: new Date(),
          lastChangedAt: null,
          lastListedAt: null,
          lastCleanAt: null,
          lastNotifiedListedAt: null,
          lastNotifiedCleanAt: null,
        },
        undefined,
        poolTx(),
      ),
    );
    expect((await api('GET', `/api/customer-ips/${ip.id}`, { token: org.token })).body.dnsbl.isListed).to.equal(false);
  });

  it('PATCH changes label and status; DELETE answers {success: true}', async () => {
    const org = await anOrganization();
    const customer = await aCustomer(org.token);
    const ip = await anIp(org.token, customer.id);
    const patched = await api('PATCH', `/api/customer-ips/${ip.publicId}`, {
      token: org.token,
      body: { label: 'Mail relay', status: 'paused' },
    });
    expect(patched.status).to.equal(200);
    expect(patched.body).to.have.all.keys(IP_FIELDS);
    expect(patched.body).to.include({ label: 'Mail relay', status: 'paused', notificationEmail: null });
    expectError(
      await api('PATCH', `/api/customer-ips/${ip.id}`, { token: org.token, body: { ipAddress: 'nope' } }),
      400,
      'validationFailed',
    );
    expectError(await api('PATCH', `/api/customer-ips/${ip.id}`, { token: org.token, body: { label: '' } }), 400, 'validationFailed');
    expect((await api('DELETE', `/api/customer-ips/${ip.id}`, { token: org.token })).body).to.deep.equal({ success: true });
    expectError(await api('GET', `/api/customer-ips/${ip.id}`, { token: org.token }), 404, 'customerIpNotFound');
  });

  it('lists a page filtered by organizationId, customerId and search', async () => {
    const org = await anOrganization();
    const first = await aCustomer(org.token);
    const second = await aCustomer(org.token);
    await anIp(org.token, first.id, { ipAddress: '198.51.100.1', label: 'Mail' });
    await anIp(org.token, first.id, { ipAddress: '198.51.100.2', label: 'Web' });
    await anIp(org.token, second.id, { ipAddress: '2001:db8::25', label: 'mail v6' });
    const list = (query: Record<string, string>) => api('GET', '/api/customer-ips', { token: org.token, query });

    const all = await list({});
    expect(all.body).to.include({ total: 3, page: 1, perPage: 50 });
    expect(all.body.items.map((i: { ipAddress: string }) => i.ipAddress)).to.deep.equal(['198.51.100.1', '198.51.100.2', '2001:db8::25']);
    expect((await list({ search: 'MAIL' })).body.total).to.equal(2);
    expect((await list({ search: '100.2' })).body.items[0].label).to.equal('Web');
    expect((await list({ customerId: second.publicId })).body.total).to.equal(1);
    expect((await list({ organizationId: String(org.user.organizationId), page: '2', perPage: '2' })).body.items).to.have.length(1);
    expect((await list({ organizationId: String(org.user.organizationId + 1) })).body).to.deep.equal({
      items: [],
      total: 0,
      page: 1,
      perPage: 50,
    });
    const { dnsbl: _dnsbl, ...single } = (await api('GET', `/api/customer-ips/${all.body.items[2].id}`, { token: org.token })).body;
    expect(all.body.items[2]).to.deep.equal(single);
    expectError(await list({ organizationId: '' }), 400, 'validationFailed');
    expectError(await list({ organizationId: 'abc' }), 400, 'validationFailed');
  });
});
