import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitoredCustomer } from '../../../support/monitoring-fixtures';

/** A 4xx says what was wrong and how to fix it: the refusals a newcomer meets in the first hour. */
describe('refusals that explain themselves', () => {
  it('a website on localhost: the URL is reserved, address it by IP and allow its range', async () => {
    const org = await anOrganization('explained');
    const customer = await aMonitoredCustomer(org.token);
    const local = await api('POST', '/api/websites', {
      token: org.token,
      body: { customerId: customer.id, url: 'http://localhost:8081/' },
    });
    expectError(local, 400, 'invalidUrl');
    expect(local.body.message).to.not.equal('Bad Request');
    expect(local.body.message).to.include('not a public address').and.include('localhost');
    expect(local.body.data.hint).to.include('IP address').and.include('CHECK_PRIVATE_ALLOWLIST');
    const loopback = await api('POST', '/api/websites', {
      token: org.token,
      body: { customerId: customer.id, url: 'http://127.0.0.1:8081/' },
    });
    expectError(loopback, 400, 'invalidUrl');
    expect(loopback.body.message).to.include('127.0.0.1 is not a public address');
    expect(loopback.body.data.hint).to.include('CHECK_PRIVATE_ALLOWLIST');
    expect(loopback.body.data).to.include({ reason: 'nonPublicAddress', host: '127.0.0.1' });
  });

  it('a webhook channel on localhost or a private address says which and how to fix it', async () => {
    const org = await anOrganization('explained-channel');
    const local = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'x', type: 'webhook', config: { url: 'http://localhost:9000/' } },
    });
    expectError(local, 400, 'invalidRequestBody');
    expect(local.body.message).to.include('config.url').and.include('not a public address').and.include('localhost');
    expect(local.body.data.hint).to.include('IP address').and.include('CHECK_PRIVATE_ALLOWLIST');
    const lan = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'x', type: 'webhook', config: { url: 'http://10.1.2.3/' } },
    });
    expectError(lan, 400, 'invalidRequestBody');
    expect(lan.body.message).to.include('10.1.2.3 is not a public address');
    expect(lan.body.data.hint).to.include('CHECK_PRIVATE_ALLOWLIST');
  });

  it('a code without a message of its own still says what it is about (a missing customer)', async () => {
    const org = await anOrganization('explained-missing');
    const missing = await api('GET', '/api/customers/00000000-0000-4000-8000-000000000000', { token: org.token });
    expectError(missing, 404, 'customerNotFound');
    expect(missing.body.message).to.equal('Customer not found');
  });
});

describe('validation failures that name what is wrong', () => {
  it('a schema failure names the field and the issue, and counts the rest', async () => {
    const org = await anOrganization('explained-validation');
    const bad = await api('POST', '/api/tags', { token: org.token, body: { name: '', color: 42 } });
    expectError(bad, 400, 'validationFailed');
    expect(bad.body.message)
      .to.match(/^Invalid (name|color): /)
      .and.include('more in data.issues');
    expect(bad.body.data.issues).to.have.length.at.least(2);
  });

  it('a refusal that names a field without a message of its own says which field and why', async () => {
    const org = await anOrganization('explained-field');
    const missing = await api('POST', '/api/notification-channels', { token: org.token, body: { name: 'x', type: 'webhook' } });
    expectError(missing, 400, 'invalidRequestBody');
    expect(missing.body.message).to.equal('Invalid config (required)');
  });
});
