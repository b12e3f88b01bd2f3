import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken, aMember } from '../../../support/identity-fixtures';
import { aCustomer } from '../../../support/callers';
import { aCustomField, aPackage } from '../../../support/tenancy-fixtures';

describe('customers: bulk create', () => {
  it('creates every row in one call', async () => {
    const org = await anOrganization();
    const basic = await aPackage(org.token, { key: 'basic', displayName: 'Basic', isDefault: true });
    const gold = await aPackage(org.token, { key: 'gold', displayName: 'Gold' });
    const response = await api('POST', '/api/customers/bulk', {
      token: org.token,
      body: {
        customers: [
          { name: 'One', email: 'one@x.test' },
          { name: 'Two', email: 'two@x.test', packageType: 'gold' },
        ],
      },
    });
    expect(response.status).to.equal(200);
    expect(response.body).to.include({ success: true, created: 2 });
    expect(response.body.customers.map((c: { name: string; packageId: number }) => [c.name, c.packageId])).to.deep.equal([
      ['One', basic.id],
      ['Two', gold.id],
    ]);
    expect((await api('GET', '/api/customers', { token: org.token })).body).to.have.length(2);
  });

  it('is all or nothing: any failing row answers 400 bulkRowsRejected listing each failure, and nothing is created', async () => {
    const org = await anOrganization();
    await aCustomField(org.token, { name: 'Region', fieldKey: 'region', fieldType: 'select', options: ['eu', 'us'] });
    const response = await api('POST', '/api/customers/bulk', {
      token: org.token,
      body: {
        customers: [
          { name: 'Good', email: 'good@x.test' },
          { name: 'Bad email', email: 'nope' },
          { name: 'Bad package', email: 'p@x.test', packageType: 'diamond' },
          { name: 'Bad field', email: 'f@x.test', customFields: { region: 'mars' } },
          'not an object',
        ],
      },
    });
    expectError(response, 400, 'bulkRowsRejected');
    const rows = response.body.data.rows;
    expect(rows.map((r: { index: number; code: string }) => [r.index, r.code])).to.deep.equal([
      [1, 'validationFailed'],
      [2, 'invalidPackageType'],
      [3, 'invalidCustomFields'],
      [4, 'validationFailed'],
    ]);
    expect(rows[0].issues[0].path).to.deep.equal(['email']);
    expect(rows[1].packageType).to.equal('diamond');
    expect(rows[2].issues[0].path).to.deep.equal(['customFields', 'region']);
    expect((await api('GET', '/api/customers', { token: org.token })).body).to.deep.equal([]);
  });

  it('refuses empty and oversized batches, customer-scoped callers and read-only users', async () => {
    const org = await anOrganization();
    expectError(await api('POST', '/api/customers/bulk', { token: org.token, body: { customers: [] } }), 400, 'validationFailed');
    const many = Array.from({ length: 501 }, (_, i) => ({ name: `C${i}`, email: 'c@x.test' }));
    expectError(await api('POST', '/api/customers/bulk', { token: org.token, body: { customers: many } }), 400, 'validationFailed');
    const customer = await aCustomer(org.token);
    const customerToken = await aCustomerToken(org.token, customer.id);
    const body = { customers: [{ name: 'X', email: 'x@x.test' }] };
    expectError(await api('POST', '/api/customers/bulk', { token: customerToken, body }), 403, 'customerScopedTokenForbidden');
    const readonly = await aMember(org, 'readonly');
    expectError(await api('POST', '/api/customers/bulk', { token: readonly.token, body }), 403, 'roleForbidden');
  });
});
