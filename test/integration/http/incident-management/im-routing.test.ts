import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { aCallerSet, type CallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { aMonitoredCustomer, aWebsite } from '../../../support/monitoring-fixtures';

describe('IM routing of monitor incidents (settings)', () => {
  let set: CallerSet;
  let other: CallerSet;
  let customerId: number;
  let monitorId: string;
  let teamId: string;
  let policyId: string;
  before(async () => {
    [set, other] = await Promise.all([aCallerSet(), aCallerSet()]);
    await Promise.all([setIncidentManagement(set.organizationId, true), setIncidentManagement(other.organizationId, true)]);
    const customer = await aMonitoredCustomer(set.admin);
    customerId = customer.id;
    monitorId = (await aWebsite(set.admin, { customerId })).publicId;
    teamId = (await api('POST', '/api/im/teams', { token: set.admin, body: { name: 'Web', members: [] } })).body.id;
    const policy = await api('POST', '/api/escalation-config', {
      token: set.admin,
      body: { name: 'Web', repeatCount: 0, levels: [{ delayMinutes: 5, targets: [{ type: 'user', id: set.org.user.id }] }] },
    });
    expect(policy.status, JSON.stringify(policy.body)).to.equal(201);
    policyId = policy.body.id;
  });

  it('is off until set; a customer default applies to its monitors; a monitor override wins and null inherits again', async () => {
    const initial = await api('GET', `/api/im/routing/customers/${customerId}`, { token: set.responder });
    expect(initial.status, JSON.stringify(initial.body)).to.equal(200);
    expect(initial.body).to.deep.equal({ customerId, enabled: false, teamId: null, escalationPolicyId: null });

    const put = await api('PUT', `/api/im/routing/customers/${customerId}`, {
      token: set.admin,
      body: { enabled: true, teamId, escalationPolicyId: policyId },
    });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    expect(put.body).to.deep.equal({ customerId, enabled: true, teamId, escalationPolicyId: policyId });

    const inherited = await api('GET', `/api/im/routing/monitors/${monitorId}`, { token: set.editor });
    expect(inherited.body).to.deep.equal({
      monitorId,
      override: null,
      customer: { enabled: true, teamId, escalationPolicyId: policyId },
      effective: { teamId, escalationPolicyId: policyId },
    });
    const off = await api('PUT', `/api/im/routing/monitors/${monitorId}`, { token: set.admin, body: { override: { enabled: false } } });
    expect(off.status, JSON.stringify(off.body)).to.equal(200);
    expect(off.body).to.include({ effective: null });
    expect(off.body.override).to.deep.equal({ enabled: false, teamId: null, escalationPolicyId: null });

    const back = await api('PUT', `/api/im/routing/monitors/${monitorId}`, { token: set.admin, body: { override: null } });
    expect(back.body).to.include({ override: null });
    expect((await api('GET', `/api/im/routing/monitors/${monitorId}`, { token: set.admin })).body.effective).to.deep.equal({
      teamId,
      escalationPolicyId: policyId,
    });
  });

  it("refuses another organization's team and policy (422) and answers 404 for its customers and monitors", async () => {
    const theirTeam = (await api('POST', '/api/im/teams', { token: other.admin, body: { name: 'Theirs', members: [] } })).body.id;
    expectError(
      await api('PUT', `/api/im/routing/customers/${customerId}`, { token: set.admin, body: { enabled: true, teamId: theirTeam } }),
      422,
      'invalidTeamId',
    );
    expectError(
      await api('PUT', `/api/im/routing/monitors/${monitorId}`, {
        token: set.admin,
        body: { override: { enabled: true, escalationPolicyId: 'nope' } },
      }),
      422,
      'imRoutingInvalidPolicyId',
    );
    expectError(await api('GET', `/api/im/routing/customers/${other.customer.id}`, { token: set.admin }), 404, 'customerNotFound');
    expectError(
      await api('PUT', `/api/im/routing/customers/${other.customer.id}`, { token: set.admin, body: { enabled: true } }),
      404,
      'customerNotFound',
    );
    const theirMonitor = (await aWebsite(other.admin, { customerId: (await aMonitoredCustomer(other.admin)).id })).publicId;
    expectError(await api('GET', `/api/im/routing/monitors/${theirMonitor}`, { token: set.admin }), 404, 'monitorNotFound');
    expectError(
      await api('PUT', `/api/im/routing/monitors/not-an-id`, { token: set.admin, body: { override: null } }),
      404,
      'monitorNotFound',
    );
    expectError(
      await api('PUT', `/api/im/routing/customers/${customerId}`, { token: set.admin, body: { enabled: 'yes' } }),
      400,
      'validationFailed',
    );
  });

  it('answers imNotEnabled while IM is off for the organization, and imAccessDenied to a read-only user', async () => {
    const off = await aCallerSet();
    expectError(await api('GET', `/api/im/routing/customers/${off.customer.id}`, { token: off.admin }), 403, 'imNotEnabled');
    expectError(
      await api('PUT', `/api/im/routing/customers/${off.customer.id}`, { token: off.admin, body: { enabled: true } }),
      403,
      'imNotEnabled',
    );
    expectError(await api('GET', `/api/im/routing/customers/${customerId}`, { token: set.readonly }), 403, 'imAccessDenied');
  });

  it('lets responders read the routing but not change it (roleForbidden): it is configuration, as escalation policies are', async () => {
    expect((await api('GET', `/api/im/routing/monitors/${monitorId}`, { token: set.responder })).status).to.equal(200);
    expectError(
      await api('PUT', `/api/im/routing/customers/${customerId}`, { token: set.responder, body: { enabled: false } }),
      403,
      'roleForbidden',
    );
    expectError(
      await api('PUT', `/api/im/routing/monitors/${monitorId}`, { token: set.responder, body: { override: null } }),
      403,
      'roleForbidden',
    );
    expect((await api('PUT', `/api/im/routing/monitors/${monitorId}`, { token: set.editor, body: { override: null } })).status).to.equal(
      200,
    );
  });
});
