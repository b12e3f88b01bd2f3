import { expect } from 'chai';
import { api, expectError } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aGlobalSupporter } from '../../support/im-fixtures';

/**
 * Found by the tenancy matrix: a platform supporter (who reads every organization) could change
 * another organization's billing e-mail and run its VAT lookup, because the write only asked for an
 * admin role, which the supporter holds in their own organization.
 */
describe('security: platform supporters read other organizations but do not change them', () => {
  it('reads organization A, and is refused its billing change and VAT validation with 403 roleForbidden', async () => {
    const target = await anOrganization('supported');
    const supporter = await aGlobalSupporter(await anOrganization('support-desk'));
    const id = String(target.user.organizationId);

    expect((await api('GET', `/api/organizations/${id}`, { token: supporter })).status).to.equal(200);
    expectError(
      await api('PATCH', `/api/organizations/${id}/billing`, { token: supporter, body: { billingEmail: 'thief@example.com' } }),
      403,
      'roleForbidden',
    );
    expectError(await api('POST', `/api/organizations/${id}/vat-id/validate`, { token: supporter }), 403, 'roleForbidden');
    const after = await api('GET', `/api/organizations/${id}`, { token: target.token });
    expect(after.body.billingEmail).not.to.equal('thief@example.com');
  });

  it('still changes billing of their own organization as its admin', async () => {
    const own = await anOrganization('support-desk');
    const supporter = await aGlobalSupporter(own);
    const changed = await api('PATCH', `/api/organizations/${own.user.organizationId}/billing`, {
      token: supporter,
      body: { billingEmail: 'billing@desk.example' },
    });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body.billingEmail).to.equal('billing@desk.example');
  });
});
