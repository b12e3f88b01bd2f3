import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { aGlobalSupporter, setIncidentManagement } from '../../../support/im-fixtures';
import { anOrgToken } from '../../../support/identity-fixtures';

const IM_PATH = '/api/im/incidents';

const expectAdmitted = (response: { status: number; body: any }) => {
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  expect(response.body.items).to.be.an('array');
};

describe('incident management access (/api/im/**, /api/escalation-config/**)', () => {
  let callers: CallerSet;
  before(async () => {
    callers = await aCallerSet();
    await setIncidentManagement(callers.organizationId, true);
  });

  it('answers imNotEnabled (403) to an allowed caller until a platform admin switches IM on', async () => {
    const { admin, org } = await aCallerSet().then((set) => ({ admin: set.admin, org: set.org }));
    expectError(await api('GET', IM_PATH, { token: admin }), 403, 'imNotEnabled');
    expectError(await api('GET', '/api/escalation-config', { token: admin }), 403, 'imNotEnabled');
    await setIncidentManagement(org.user.organizationId, true);
    expectAdmitted(await api('GET', IM_PATH, { token: admin }));
    await setIncidentManagement(org.user.organizationId, false);
    expectError(await api('GET', IM_PATH, { token: admin }), 403, 'imNotEnabled');
  });

  it('shows the switch on the organization record the platform admin gets back', async () => {
    const set = await aCallerSet();
    const organization = await api('GET', `/api/organizations/${set.organizationId}`, { token: set.admin });
    expect(organization.body.incidentManagementEnabled).to.equal(false);
    await setIncidentManagement(set.organizationId, true);
    const after = await api('GET', `/api/organizations/${set.organizationId}`, { token: set.admin });
    expect(after.body.incidentManagementEnabled).to.equal(true);
  });

  it('lets admins, editors and responders in, signed in or through an organization-wide token', async () => {
    for (const token of [callers.admin, callers.editor, callers.responder, callers.orgToken]) {
      expectAdmitted(await api('GET', IM_PATH, { token }));
    }
    const responderToken = await anOrgToken(callers.responder, { name: 'pager bridge' });
    expectAdmitted(await api('GET', IM_PATH, { token: responderToken }));
  });

  it('answers imAccessDenied (403) without a session or token', async () => {
    expectError(await api('GET', IM_PATH), 403, 'imAccessDenied');
    expectError(await api('POST', '/api/im/events', { body: {} }), 403, 'imAccessDenied');
    expectError(await api('GET', '/api/escalation-config'), 403, 'imAccessDenied');
  });

  it('keeps 401 for a credential that does not authenticate', async () => {
    expectError(await api('GET', IM_PATH, { token: 'wsm_not-a-token' }), 401, 'unauthorized');
  });

  it('answers imAccessDenied to read-only logins and their tokens', async () => {
    expectError(await api('GET', IM_PATH, { token: callers.readonly }), 403, 'imAccessDenied');
    const readonlyToken = await anOrgToken(callers.readonly, { name: 'ro' });
    expectError(await api('GET', IM_PATH, { token: readonlyToken }), 403, 'imAccessDenied');
  });

  it('answers imAccessDenied to a global supporter, even one holding the admin role', async () => {
    const supporter = await aGlobalSupporter(callers.org);
    expectError(await api('GET', IM_PATH, { token: supporter }), 403, 'imAccessDenied');
  });

  it('answers imAccessDenied before imNotEnabled: a refused caller learns nothing of the switch', async () => {
    const set = await aCallerSet();
    expectError(await api('GET', IM_PATH, { token: set.readonly }), 403, 'imAccessDenied');
    expectError(await api('GET', IM_PATH), 403, 'imAccessDenied');
  });

  it('refuses customer-scoped tokens and customer-bound logins with customerScopedTokenForbidden (the denylist runs first)', async () => {
    for (const token of [callers.customerToken, callers.customerUser, callers.customerReadonly]) {
      expectError(await api('GET', IM_PATH, { token }), 403, 'customerScopedTokenForbidden');
      expectError(await api('GET', '/api/escalation-config', { token }), 403, 'customerScopedTokenForbidden');
    }
  });
});
