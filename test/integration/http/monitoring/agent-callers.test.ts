import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMember } from '../../../support/identity-fixtures';
import { approvedClient } from '../../../support/agent-fixtures';
import {
  aMonitorPackage,
  aMonitoredCustomer,
  aWebsite,
  PUBLIC_URL,
  setAutoQuotaUpgrade,
  withAgentWrites,
} from '../../../support/monitoring-fixtures';

describe('monitors and agent callers', () => {
  it('makes an agent opt in to a paid quota tier (paidQuotaUpgradeNotAuthorized), people not', async () => {
    const org = await anOrganization('agent-quota');
    await setAutoQuotaUpgrade(org.user.organizationId, true);
    const pkg = await aMonitorPackage(org.token, {
      quotaTiers: [
        { monitorLimit: 1, priceMonthly: 0 },
        { monitorLimit: 2, priceMonthly: 19 },
        { monitorLimit: 3, priceMonthly: 29 },
      ],
    });
    const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
    const { token } = await approvedClient(org, 'quota-agent', 'api.read api.write.monitors');
    await aWebsite(org.token, { customerId: customer.id });
    await withAgentWrites(async () => {
      const refused = await api('POST', '/api/websites', { token, body: { customerId: customer.id, url: PUBLIC_URL } });
      expectError(refused, 403, 'paidQuotaUpgradeNotAuthorized');
      expect(refused.body.data).to.include({ monitorLimit: 1, priceMonthly: 19 });
      const bought = await api('POST', '/api/websites', {
        token,
        body: { customerId: customer.id, url: PUBLIC_URL, allowPaidQuotaUpgrade: true },
      });
      expect(bought.status, JSON.stringify(bought.body)).to.equal(201);
      const list = await api('GET', '/api/websites', { token });
      expect(list.body.total).to.equal(2);
    });
    expect((await api('POST', '/api/websites', { token: org.token, body: { customerId: customer.id, url: PUBLIC_URL } })).status).to.equal(
      201,
    );
  });

  it('refuses tags and change requests from an agent whose authorizing user is gone (authorizingUserUnresolved)', async () => {
    const org = await anOrganization('agent-user');
    const customer = await aMonitoredCustomer(org.token);
    const website = await aWebsite(org.token, { customerId: customer.id });
    const editor = await aMember(org, 'editor');
    const { token } = await approvedClient(
      { ...org, email: editor.email, token: editor.token },
      'monitor-agent',
      'api.read api.write.monitors',
    );
    await withAgentWrites(async () => {
      const tag = await api('POST', '/api/tags', { token, body: { name: 'from agent', color: '#3B82F6', customerId: customer.id } });
      expect(tag.status, JSON.stringify(tag.body)).to.equal(201);
      expect((await api('DELETE', `/api/users/${editor.id}`, { token: org.token })).status).to.be.oneOf([200, 204]);
      expectError(
        await api('POST', '/api/tags', { token, body: { name: 'again', color: '#3B82F6', customerId: customer.id } }),
        403,
        'authorizingUserUnresolved',
      );
      expectError(
        await api('POST', `/api/websites/${website.publicId}/change-requests`, { token, body: { action: 'delete' } }),
        403,
        'authorizingUserUnresolved',
      );
    });
  });
});
