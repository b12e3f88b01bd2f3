import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken, aMember } from '../../../support/identity-fixtures';
import { aMonitor, aMonitoredCustomer, aWebsite } from '../../../support/monitoring-fixtures';

async function setup() {
  const org = await anOrganization('requests');
  const customer = await aMonitoredCustomer(org.token);
  const customerToken = await aCustomerToken(org.token, customer.id);
  const website = await aWebsite(org.token, { customerId: customer.id });
  return { org, customer, customerToken, website };
}

describe('change requests', () => {
  it('files a request for a managed website, lists it, and applies it on approval', async () => {
    const { org, customer, customerToken, website } = await setup();
    const filed = await api('POST', `/api/websites/${website.publicId}/change-requests`, {
      token: customerToken,
      body: { changes: { checkInterval: 30, name: 'Please rename' }, note: 'slower checks please' },
    });
    expect(filed.status, JSON.stringify(filed.body)).to.equal(201);
    expect(filed.body).to.include({
      status: 'open',
      action: 'update',
      monitorPublicId: website.publicId,
      monitorType: 'website',
      customerId: customer.id,
      note: 'slower checks please',
    });
    expect(filed.body.changes).to.deep.equal({ checkInterval: 30, name: 'Please rename' });

    const mine = await api('GET', '/api/change-requests', { token: customerToken });
    expect(mine.body).to.include({ total: 1 });
    const open = await api('GET', '/api/change-requests', { token: org.token, query: { status: 'open' } });
    expect(open.body.items.map((r: any) => r.publicId)).to.deep.equal([filed.body.publicId]);

    expectError(
      await api('PATCH', `/api/change-requests/${filed.body.publicId}`, { token: customerToken, body: { status: 'approved' } }),
      403,
      'roleForbidden',
    );
    const approved = await api('PATCH', `/api/change-requests/${filed.body.publicId}`, {
      token: org.token,
      body: { status: 'approved', note: 'done' },
    });
    expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
    expect(approved.body).to.include({ status: 'approved', decisionNote: 'done', decidedByUserId: org.user.id });
    const after = await api('GET', `/api/websites/${website.publicId}`, { token: org.token });
    expect(after.body).to.include({ checkInterval: 30, name: 'Please rename' });
    expectError(
      await api('PATCH', `/api/change-requests/${filed.body.publicId}`, { token: org.token, body: { status: 'rejected' } }),
      409,
      'changeRequestAlreadySettled',
    );
  });

  it('drops a rejected change, lets the customer cancel its own, and deletes on an approved delete', async () => {
    const { org, customerToken, website } = await setup();
    const rename = await api('POST', `/api/websites/${website.publicId}/change-requests`, {
      token: customerToken,
      body: { changes: { name: 'Nope' } },
    });
    await api('PATCH', `/api/change-requests/${rename.body.id}`, { token: org.token, body: { status: 'rejected' } });
    expect((await api('GET', `/api/websites/${website.publicId}`, { token: org.token })).body.name).not.to.equal('Nope');
    const mistake = await api('POST', `/api/websites/${website.publicId}/change-requests`, {
      token: customerToken,
      body: { changes: { name: 'Oops' } },
    });
    expect(
      (await api('PATCH', `/api/change-requests/${mistake.body.publicId}`, { token: customerToken, body: { status: 'cancelled' } })).body
        .status,
    ).to.equal('cancelled');
    const removal = await api('POST', `/api/websites/${website.publicId}/change-requests`, {
      token: customerToken,
      body: { action: 'delete' },
    });
    const approved = await api('PATCH', `/api/change-requests/${removal.body.publicId}`, {
      token: org.token,
      body: { status: 'approved' },
    });
    expect(approved.body).to.include({ status: 'approved', monitorId: null });
    expectError(await api('GET', `/api/websites/${website.publicId}`, { token: org.token }), 404, 'websiteNotFound');
  });

  it('validates the proposed change like a PATCH', async () => {
    const { customerToken, website } = await setup();
    const path = `/api/websites/${website.publicId}/change-requests`;
    expectError(await api('POST', path, { token: customerToken, body: { changes: { checkInterval: 5000 } } }), 400, 'checkIntervalTooHigh');
    expectError(await api('POST', path, { token: customerToken, body: { changes: { url: 'http://10.1.2.3/' } } }), 400, 'invalidUrl');
    expectError(await api('POST', path, { token: customerToken, body: { changes: {} } }), 400, 'validationFailed');
    expectError(await api('POST', path, { token: customerToken, body: { changes: { credentials: null } } }), 400, 'validationFailed');
  });

  it('works for per-kind monitors too', async () => {
    const { org, customer, customerToken } = await setup();
    const smtp = await aMonitor(org.token, 'smtp', { customerId: customer.id, hostname: 'mail.monitor-fixture.com' });
    const path = `/api/monitors/smtp/${smtp.publicId}/change-requests`;
    expectError(await api('POST', path, { token: customerToken, body: { changes: { checkMode: 'udp' } } }), 400, 'invalidCheckMode');
    expectError(
      await api('POST', path, { token: customerToken, body: { changes: { credentials: { username: 'u', password: 'p' } } } }),
      400,
      'validationFailed',
    );
    const filed = await api('POST', path, { token: customerToken, body: { changes: { checkMode: 'tcp' } } });
    expect(filed.body).to.include({ monitorType: 'smtp', status: 'open' });
    await api('PATCH', `/api/change-requests/${filed.body.publicId}`, { token: org.token, body: { status: 'approved' } });
    expect((await api('GET', `/api/monitors/smtp/${smtp.publicId}`, { token: org.token })).body.checkMode).to.equal('tcp');
    expectError(
      await api('POST', `/api/monitors/dns/${smtp.publicId}/change-requests`, { token: customerToken, body: { action: 'delete' } }),
      404,
      'monitorNotFound',
    );
  });

  it('allows 10 open requests per customer; the 11th answers 429 tooManyOpenRequests with data.retryAfter', async () => {
    const { org, customer, customerToken, website } = await setup();
    const path = `/api/websites/${website.publicId}/change-requests`;
    for (let i = 0; i < 10; i++) {
      const response = await api('POST', path, { token: customerToken, body: { changes: { name: `n${i}` } } });
      expect(response.status).to.equal(201);
    }
    const refused = await api('POST', path, { token: customerToken, body: { action: 'delete' } });
    expectError(refused, 429, 'tooManyOpenRequests');
    expect(refused.body.data).to.include({ retryAfter: 3600 });
    const other = await aWebsite(org.token, { customerId: customer.id });
    expectError(
      await api('POST', `/api/websites/${other.publicId}/change-requests`, { token: org.token, body: { action: 'delete' } }),
      429,
      'tooManyOpenRequests',
    );
    const first = (await api('GET', '/api/change-requests', { token: customerToken, query: { perPage: '1' } })).body.items[0];
    await api('PATCH', `/api/change-requests/${first.publicId}`, { token: customerToken, body: { status: 'cancelled' } });
    expect((await api('POST', path, { token: customerToken, body: { action: 'delete' } })).status).to.equal(201);
  });

  it('keeps other organizations and read-only users out', async () => {
    const { org, customerToken, website } = await setup();
    const filed = await api('POST', `/api/websites/${website.publicId}/change-requests`, {
      token: customerToken,
      body: { action: 'delete' },
    });
    const stranger = await anOrganization('stranger');
    expectError(
      await api('PATCH', `/api/change-requests/${filed.body.publicId}`, { token: stranger.token, body: { status: 'approved' } }),
      404,
      'changeRequestNotFound',
    );
    expect((await api('GET', '/api/change-requests', { token: stranger.token })).body.total).to.equal(0);
    const readonly = await aMember(org, 'readonly');
    expectError(
      await api('POST', `/api/websites/${website.publicId}/change-requests`, { token: readonly.token, body: { action: 'delete' } }),
      403,
      'roleForbidden',
    );
  });
});
