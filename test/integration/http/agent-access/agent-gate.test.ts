import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { agentApi } from '../../../support/agent-http';
import { anOrganization } from '../../../support/builders';
import { aMember } from '../../../support/identity-fixtures';
import { aMonitorPackage, aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import { anAccessToken, anAnonymousAgent, approvedClient, platformAdmin, withPlatformSwitches } from '../../../support/agent-fixtures';

/** An api.read agent token claimed by the organization's admin. */
async function aReadToken() {
  const org = await anOrganization();
  const agent = await anAnonymousAgent();
  expect((await agentApi('POST', '/agent/identity/claim', { token: org.token, json: { claim_token: agent.claim_token } })).status).to.equal(
    200,
  );
  return { org, token: await anAccessToken(agent.identity_assertion) };
}

describe('agent access: the agent gate', () => {
  it('keeps tools.public tokens to the tools, and lets api.read read health but nothing else', async () => {
    const tools = await anAccessToken((await anAnonymousAgent()).identity_assertion);
    expectError(await api('GET', '/api/health', { token: tools }), 403, 'agentTokenReadOnly');
    // Admitted to the tools: the tool's own validation answers, not the gate.
    expectError(await api('GET', '/api/tools/dns-lookup', { token: tools }), 400, 'validationFailed');
    const { token } = await aReadToken();
    expect((await api('GET', '/api/health', { token })).status).to.equal(200);
    expectError(await api('GET', '/api/users', { token }), 403, 'agentTokenReadOnly');
    expectError(await api('GET', '/api/auth/get-session', { token }), 403, 'agentTokenReadOnly');
    expectError(await api('GET', '/api/oauth/connections', { token }), 403, 'agentTokenReadOnly');
  });

  it('answers any write agentTokenReadOnly while agent writes are off, and agentTokenScopeForbidden outside the grant when on', async () => {
    const { token } = await aReadToken();
    expectError(await api('PATCH', '/api/organization', { token, body: { name: 'x' } }), 403, 'agentTokenReadOnly');
    expectError(await api('POST', '/api/websites', { token, body: {} }), 403, 'agentTokenReadOnly');
    await withPlatformSwitches({ agentWritesEnabled: true }, async () => {
      expectError(await api('PATCH', '/api/organization', { token, body: { name: 'x' } }), 403, 'agentTokenScopeForbidden');
      expectError(await api('POST', '/api/websites', { token, body: {} }), 403, 'agentTokenScopeForbidden');
    });
  });

  it('opens exactly the fixed write pairs of a granted write scope, never the denylist', async () => {
    const org = await anOrganization();
    const { token } = await approvedClient(org, 'monitor-writer', 'api.read api.write.monitors');
    await withPlatformSwitches({ agentWritesEnabled: true }, async () => {
      expectError(await api('POST', '/api/websites', { token, body: {} }), 400, 'validationFailed');
      expectError(await api('POST', '/api/incidents', { token, body: {} }), 403, 'agentTokenScopeForbidden');
      expectError(await api('POST', '/api/organization/tokens', { token, body: { name: 'x' } }), 403, 'agentTokenScopeForbidden');
      expectError(
        await api('PATCH', `/api/organizations/${org.user.organizationId}/billing`, { token, body: {} }),
        403,
        'agentTokenScopeForbidden',
      );
    });
  });

  it('lets api.write.monitors check a monitor now under its kind path as under /api/websites/{id}', async () => {
    const org = await anOrganization();
    const customer = await aMonitoredCustomer(org.token, { packageId: (await aMonitorPackage(org.token)).id });
    // Paused: the trigger queues nothing (triggered 0), so no check runs on the shared test server.
    const dns = await api('POST', '/api/monitors/dns', {
      token: org.token,
      body: { customerId: customer.id, hostname: 'agent-trigger-fixture.com', status: 'paused' },
    });
    expect(dns.status, dns.text).to.equal(201);
    const { token } = await approvedClient(org, 'checker', 'api.read api.write.monitors');
    const { token: incidentsOnly } = await approvedClient(org, 'incidents', 'api.read api.write.incidents');
    await withPlatformSwitches({ agentWritesEnabled: true }, async () => {
      for (const path of [`/api/websites/${dns.body.publicId}/trigger-check`, `/api/monitors/dns/${dns.body.publicId}/trigger-check`]) {
        const answer = await api('POST', path, { token });
        expect(answer.status, `${path}: ${answer.text}`).to.equal(202);
        expect(answer.body).to.include({ websiteId: dns.body.publicId, triggered: 0 });
        expectError(await api('POST', path, { token: incidentsOnly }), 403, 'agentTokenScopeForbidden');
      }
    });
  });

  it('answers authorizingUserUnresolved for tags and change requests once the approving user is gone', async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    const { token } = await approvedClient({ ...org, email: editor.email, token: editor.token }, 'tagger', 'api.read api.write.monitors');
    expect((await api('DELETE', `/api/users/${editor.id}`, { token: org.token })).status).to.be.oneOf([200, 204]);
    await withPlatformSwitches({ agentWritesEnabled: true }, async () => {
      expectError(await api('POST', '/api/tags', { token, body: { name: 't' } }), 403, 'authorizingUserUnresolved');
      expectError(await api('POST', '/api/websites/abc/change-requests', { token, body: {} }), 403, 'authorizingUserUnresolved');
      expectError(await api('POST', '/api/websites', { token, body: {} }), 403, 'roleForbidden');
    });
    expect((await api('GET', '/api/health', { token })).status).to.equal(200);
  });

  it('answers 503 without a code to agent tokens while agent auth is off', async () => {
    const { token } = await aReadToken();
    await withPlatformSwitches({ agentAuthEnabled: false }, async () => {
      expectError(await api('GET', '/api/health', { token }), 503);
    });
    expect((await api('GET', '/api/health', { token })).status).to.equal(200);
  });

  it('applies the organization status gate and the account gate to agent tokens', async () => {
    const { org, token } = await aReadToken();
    const admin = await platformAdmin();
    const member = await aMember(org, 'readonly');
    const agent = await anAnonymousAgent();
    await agentApi('POST', '/agent/identity/claim', { token: member.token, json: { claim_token: agent.claim_token } });
    const memberAgent = await anAccessToken(agent.identity_assertion);
    expect((await api('PATCH', `/api/users/${member.id}`, { token: org.token, body: { isActive: false } })).status).to.equal(200);
    expectError(await api('GET', '/api/health', { token: memberAgent }), 403, 'accountDeactivated');

    const path = `/api/platform-admin/organizations/${org.user.organizationId}`;
    expect((await api('PATCH', path, { token: admin, body: { status: 'suspended' } })).status).to.equal(200);
    expectError(await api('GET', '/api/health', { token }), 423);
    expect((await api('PATCH', path, { token: admin, body: { status: 'deleted' } })).status).to.equal(200);
    expectError(await api('GET', '/api/health', { token }), 423, 'organizationSuspended');
  });
});
