import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken, aMember } from '../../../support/identity-fixtures';
import { aCustomer } from '../../../support/callers';
import { aCustomField } from '../../../support/tenancy-fixtures';

describe('custom fields', () => {
  it('creates, lists in display order, changes and deletes definitions', async () => {
    const org = await anOrganization();
    const created = await api('POST', '/api/custom-fields', {
      token: org.token,
      body: {
        organizationId: org.user.organizationId,
        name: 'Region',
        fieldKey: 'region',
        fieldType: 'select',
        isRequired: true,
        displayOrder: 2,
        options: ['eu', 'us'],
        placeholder: 'Pick one',
        helpText: 'Where the data lives',
        showInTable: true,
      },
    });
    expect(created.status).to.equal(200);
    expect(created.body).to.include({
      name: 'Region',
      fieldKey: 'region',
      fieldType: 'select',
      isRequired: true,
      displayOrder: 2,
      placeholder: 'Pick one',
      helpText: 'Where the data lives',
      showInTable: true,
      isActive: true,
      organizationId: org.user.organizationId,
    });
    expect(created.body.options).to.deep.equal(['eu', 'us']);
    await aCustomField(org.token, { name: 'Notes', fieldKey: 'notes', fieldType: 'textarea', displayOrder: 1 });
    const list = await api('GET', '/api/custom-fields', { token: org.token });
    expect(list.body.items.map((f: { fieldKey: string }) => f.fieldKey)).to.deep.equal(['notes', 'region']);

    const changed = await api('PATCH', `/api/custom-fields/${created.body.publicId}`, {
      token: org.token,
      body: { name: 'Data region', options: ['eu', 'us', 'apac'], isActive: false },
    });
    expect(changed.body).to.include({ name: 'Data region', isActive: false, fieldKey: 'region' });
    expect(changed.body.options).to.deep.equal(['eu', 'us', 'apac']);

    expect((await api('DELETE', `/api/custom-fields/${created.body.id}`, { token: org.token })).body).to.deep.equal({ success: true });
    expectError(
      await api('PATCH', `/api/custom-fields/${created.body.id}`, { token: org.token, body: { name: 'x' } }),
      404,
      'customFieldNotFound',
    );
  });

  it('refuses a select without options, options on other types, a taken key, a changed key and another organization', async () => {
    const org = await anOrganization();
    const field = await aCustomField(org.token, { fieldKey: 'plan' });
    const post = (body: Record<string, unknown>) => api('POST', '/api/custom-fields', { token: org.token, body: { name: 'N', ...body } });
    expectError(await post({ fieldKey: 'a', fieldType: 'select' }), 400, 'validationFailed');
    expectError(await post({ fieldKey: 'b', fieldType: 'text', options: ['x'] }), 400, 'validationFailed');
    expectError(await post({ fieldKey: 'Bad Key', fieldType: 'text' }), 400, 'validationFailed');
    expectError(await post({ fieldKey: 'c', fieldType: 'colour' }), 400, 'validationFailed');
    expectError(await post({ fieldKey: 'plan', fieldType: 'text' }), 409, 'customFieldKeyTaken');
    expectError(
      await post({ fieldKey: 'd', fieldType: 'text', organizationId: org.user.organizationId + 1000 }),
      404,
      'organizationNotFound',
    );
    expectError(
      await api('PATCH', `/api/custom-fields/${field.id}`, { token: org.token, body: { fieldKey: 'other' } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('PATCH', `/api/custom-fields/${field.id}`, { token: org.token, body: { fieldType: 'select' } }),
      400,
      'validationFailed',
    );
  });

  it('deleting a definition removes its values from customers', async () => {
    const org = await anOrganization();
    const field = await aCustomField(org.token, { fieldKey: 'crm_id' });
    const customer = await aCustomer(org.token, { customFields: { crm_id: 'A-1' } });
    expect(customer.customFields).to.deep.equal({ crm_id: 'A-1' });
    await api('DELETE', `/api/custom-fields/${field.id}`, { token: org.token });
    expect((await api('GET', `/api/customers/${customer.id}`, { token: org.token })).body.customFields).to.deep.equal({});
  });

  it('is closed to customer-scoped tokens and customer-bound sessions (403 customerScopedTokenForbidden)', async () => {
    const org = await anOrganization();
    const field = await aCustomField(org.token);
    const customer = await aCustomer(org.token);
    const customerToken = await aCustomerToken(org.token, customer.id);
    const bound = await aMember(org, 'admin', customer.id);
    for (const token of [customerToken, bound.token]) {
      expectError(await api('GET', '/api/custom-fields', { token }), 403, 'customerScopedTokenForbidden');
      expectError(
        await api('POST', '/api/custom-fields', { token, body: { name: 'N', fieldKey: 'n', fieldType: 'text' } }),
        403,
        'customerScopedTokenForbidden',
      );
      expectError(
        await api('PATCH', `/api/custom-fields/${field.id}`, { token, body: { name: 'x' } }),
        403,
        'customerScopedTokenForbidden',
      );
      expectError(await api('DELETE', `/api/custom-fields/${field.id}`, { token }), 403, 'customerScopedTokenForbidden');
    }
  });

  it('lets every organization-wide role read, and only admins write (roleForbidden)', async () => {
    const org = await anOrganization();
    const field = await aCustomField(org.token);
    for (const role of ['editor', 'readonly', 'responder'] as const) {
      const { token } = await aMember(org, role);
      expect((await api('GET', '/api/custom-fields', { token })).body.items).to.have.length(1);
      expectError(
        await api('POST', '/api/custom-fields', { token, body: { name: 'N', fieldKey: 'n', fieldType: 'text' } }),
        403,
        'roleForbidden',
      );
      expectError(await api('PATCH', `/api/custom-fields/${field.id}`, { token, body: { name: 'x' } }), 403, 'roleForbidden');
      expectError(await api('DELETE', `/api/custom-fields/${field.id}`, { token }), 403, 'roleForbidden');
    }
  });

  it("hides other organizations' definitions (404)", async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const field = await aCustomField(other.token);
    expect((await api('GET', '/api/custom-fields', { token: org.token })).body.items).to.deep.equal([]);
    expectError(
      await api('PATCH', `/api/custom-fields/${field.publicId}`, { token: org.token, body: { name: 'x' } }),
      404,
      'customFieldNotFound',
    );
    expectError(await api('DELETE', `/api/custom-fields/${field.id}`, { token: org.token }), 404, 'customFieldNotFound');
  });
});
