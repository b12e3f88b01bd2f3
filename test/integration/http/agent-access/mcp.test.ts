import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { api, expectError } from '../../../support/http-client';
import { agentApi, canonicalFetch } from '../../../support/agent-http';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { aCustomerToken, aMember, anOrgToken } from '../../../support/identity-fixtures';
import { aMonitoredCustomer, aWebsite } from '../../../support/monitoring-fixtures';
import {
  anAccessToken,
  anAnonymousAgent,
  approvedClient,
  awayFromMinuteBoundary,
  withPlatformSwitches,
} from '../../../support/agent-fixtures';
import { TEST_BASE_URL } from '../../../support/agent-test-issuer';
import { anMcpClient, callOk, callRefused, MCP_URL, toolNames } from '../../../support/mcp-client';
import { firstContact } from '../../../../examples/mcp/agent';
import { useConfiguredChecks } from '../../../support/loopback-checks';

const PUBLIC_TOOLS = ['blocklist_lookup', 'dns_lookup', 'domain_expiry', 'port_check', 'ssl_certificate'];
const READ_TOOLS = ['find_monitors', 'get_incident', 'get_monitor', 'get_monitor_uptime', 'get_recent_checks', 'list_incidents'];
const ORGANIZATION_READS = ['list_customers', 'list_maintenance_windows', 'list_status_pages', 'who_is_on_call'];
const INCIDENT_WRITES = ['acknowledge_incident', 'resolve_incident'];
const MONITOR_WRITES = ['pause_monitor', 'resume_monitor', 'schedule_maintenance', 'trigger_check'];
const sorted = (...lists: string[][]) => lists.flat().sort();

async function expectRejected(call: Promise<unknown>, message: RegExp): Promise<void> {
  const failure = await call.then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  expect(failure?.message).to.match(message);
}

/** An organization with a customer, a website and a manual incident on it, made through the API. */
async function aMonitoredOrganization() {
  const org = await anOrganization('mcp');
  const customer = await aMonitoredCustomer(org.token);
  const website = await aWebsite(org.token, { customerId: customer.id, name: 'Shop front' });
  const incident = await api('POST', '/api/incidents', { token: org.token, body: { monitorId: website.publicId, title: 'Checkout slow' } });
  expect(incident.status, JSON.stringify(incident.body)).to.equal(201);
  return { org, customer, website, incident: incident.body as Record<string, any> };
}

/** An anonymous agent's registration redeemed by the organization's admin, and a token minted after it (api.read). */
async function aClaimedAgentToken(org: SignedUp): Promise<string> {
  const agent = await anAnonymousAgent();
  const claimed = await agentApi('POST', '/agent/identity/claim', { token: org.token, json: { claim_token: agent.claim_token } });
  expect(claimed.status, JSON.stringify(claimed.body)).to.equal(200);
  return anAccessToken(agent.identity_assertion);
}

describe('MCP server: POST /mcp with the SDK client', () => {
  // The public tools as the server is configured (its resolver, its target policy): earlier test files may have pointed them at loopback peers.
  before(() => useConfiguredChecks());

  const clients: Client[] = [];
  const connect = async (token: string) => {
    const client = await anMcpClient(token);
    clients.push(client);
    return client;
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  it('answers a bare request 401 naming the protected-resource metadata, from which an agent registers, connects and calls a tool', async () => {
    const bare = await agentApi('POST', '/mcp', { json: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expectError(bare, 401, 'unauthorized');
    expect(bare.headers.get('www-authenticate')).to.equal(
      `Bearer resource_metadata="${TEST_BASE_URL}/.well-known/oauth-protected-resource"`,
    );
    const invalid = await agentApi('POST', '/mcp', { token: 'wsma_not-a-token', json: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expectError(invalid, 401, 'unauthorized');
    expect(invalid.headers.get('www-authenticate')).to.match(/resource_metadata=".+", error="invalid_token"$/);

    // docs/agents.md's example, run as written: discovery, registration, token, the SDK client.
    const contact = await firstContact(MCP_URL, { fetch: canonicalFetch, domain: 'www.monitor-fixture.com' });
    expect(contact.token).to.match(/^wsma_/);
    expect([...contact.tools].sort()).to.deep.equal(PUBLIC_TOOLS);
    expect(contact.lookup.isError).to.not.equal(true);
    expect(contact.lookup.structuredContent).to.deep.include({ kind: 'dns', status: 'up' });
    expect((contact.lookup.structuredContent as any).evidence.dns.answers).to.deep.equal(['93.184.216.34']);
  });

  it('docs/agents.md shows the example as it is, and lists every tool the server lists to an organization token', async () => {
    const page = readFileSync('docs/agents.md', 'utf8');
    const block = page.slice(page.indexOf('<!-- mcp-example:begin -->'), page.indexOf('<!-- mcp-example:end -->'));
    expect(block.replace(/^<!-- mcp-example:begin -->\n```ts\n/, '').replace(/```\n$/, '')).to.equal(
      readFileSync('examples/mcp/agent.ts', 'utf8'),
    );
    const documented = [...page.matchAll(/^\| `([a-z_]+)` \| `/gm)].map((match) => match[1]!).sort();
    const admin = await connect((await anOrganization('docs')).token);
    expect(documented).to.deep.equal(await toolNames(admin));
  });

  it('refuses an api.read tool to an anonymous registration until a person claims it, then reads', async () => {
    const { org, website } = await aMonitoredOrganization();
    const agent = await anAnonymousAgent();
    const before = await connect(await anAccessToken(agent.identity_assertion));
    await callRefused(before, 'find_monitors', {}, 403, 'agentTokenReadOnly');
    // The public tools answer the API's own codes: a target that is not public is refused.
    await callRefused(before, 'port_check', { host: '127.0.0.1', port: 22 }, 400, 'invalidHostname');

    const claimed = await agentApi('POST', '/agent/identity/claim', { token: org.token, json: { claim_token: agent.claim_token } });
    expect(claimed.status, JSON.stringify(claimed.body)).to.equal(200);
    const after = await connect(await anAccessToken(agent.identity_assertion));
    expect(await toolNames(after)).to.deep.equal(sorted(PUBLIC_TOOLS, READ_TOOLS));
    const page = await callOk(after, 'find_monitors', {});
    expect(page).to.include({ total: 1, page: 1, perPage: 20 });
    expect(page.items.map((item: any) => item.publicId)).to.deep.equal([website.publicId]);
    const monitor = await callOk(after, 'get_monitor', { id: website.publicId });
    expect(monitor).to.include({ publicId: website.publicId, name: 'Shop front' });
    const checks = await callOk(after, 'get_recent_checks', { id: website.publicId });
    expect(checks).to.include({ total: 0, perPage: 10 });
    await callRefused(after, 'list_customers', {}, 403, 'agentTokenReadOnly');
  });

  it("lists the tools each credential reaches: an organization token every tool, a customer token its customer's", async () => {
    const { org, customer, website, incident } = await aMonitoredOrganization();
    const other = await aMonitoredCustomer(org.token);
    await aWebsite(org.token, { customerId: other.id });
    const admin = await connect(await anOrgToken(org.token));
    expect(await toolNames(admin)).to.deep.equal(sorted(PUBLIC_TOOLS, READ_TOOLS, ORGANIZATION_READS, INCIDENT_WRITES, MONITOR_WRITES));
    expect((await callOk(admin, 'find_monitors', {})).total).to.equal(2);
    const open = await callOk(admin, 'list_incidents', { status: 'open' });
    expect(open.items.map((item: any) => item.publicId)).to.deep.equal([incident.publicId]);
    const detail = await callOk(admin, 'get_incident', { id: incident.publicId });
    expect(detail.timeline.map((entry: any) => entry.kind)).to.include('opened');

    const customerClient = await connect(await aCustomerToken(org.token, customer.id));
    const names = await toolNames(customerClient);
    expect(names)
      .to.include.members([...READ_TOOLS, 'list_customers'])
      .and.not.include('who_is_on_call');
    const page = await callOk(customerClient, 'find_monitors', {});
    expect(page.items.map((item: any) => item.publicId)).to.deep.equal([website.publicId]);
    await callRefused(customerClient, 'who_is_on_call', {}, 403, 'customerScopedTokenForbidden');
  });

  it('lists a role only the tools its role gates let it use, and those it lists answer', async () => {
    const { org, website, incident } = await aMonitoredOrganization();
    const responder = await connect((await aMember(org, 'responder')).token);
    expect(await toolNames(responder)).to.deep.equal(
      sorted(PUBLIC_TOOLS, READ_TOOLS, ORGANIZATION_READS, ['acknowledge_incident', 'trigger_check']),
    );
    expect((await callOk(responder, 'acknowledge_incident', { id: incident.publicId })).status).to.equal('acknowledged');
    await callRefused(responder, 'pause_monitor', { id: website.publicId }, 403, 'roleForbidden');
    await callRefused(responder, 'resolve_incident', { id: incident.publicId }, 403, 'roleForbidden');

    const readonly = await connect((await aMember(org, 'readonly')).token);
    expect(await toolNames(readonly)).to.deep.equal(sorted(PUBLIC_TOOLS, READ_TOOLS, ORGANIZATION_READS, ['trigger_check']));
    await callRefused(readonly, 'acknowledge_incident', { id: incident.publicId }, 403, 'roleForbidden');
  });

  it("answers another organization's ids as not found", async () => {
    const { website, incident } = await aMonitoredOrganization();
    const strangers = await anOrganization('stranger');
    const stranger = await connect(await anOrgToken(strangers.token));
    await callRefused(stranger, 'get_monitor', { id: website.publicId }, 404);
    await callRefused(stranger, 'get_recent_checks', { id: website.publicId }, 404);
    await callRefused(stranger, 'get_incident', { id: incident.publicId }, 404, 'incidentNotFound');
    await callRefused(stranger, 'acknowledge_incident', { id: incident.publicId }, 404, 'incidentNotFound');
    expect((await callOk(stranger, 'find_monitors', {})).total).to.equal(0);
    const strangerAgent = await connect(await aClaimedAgentToken(strangers));
    await callRefused(strangerAgent, 'get_monitor', { id: website.publicId }, 404);
    await callRefused(strangerAgent, 'get_incident', { id: incident.publicId }, 404, 'incidentNotFound');
  });

  it('refuses agent writes with agentTokenReadOnly while writes are off, agentTokenScopeForbidden outside the grant, and writes within it', async () => {
    const { org, website, incident } = await aMonitoredOrganization();
    const reader = await connect(await aClaimedAgentToken(org));
    await callRefused(reader, 'acknowledge_incident', { id: incident.publicId }, 403, 'agentTokenReadOnly');
    const { token } = await approvedClient(org, 'incident-bot', 'api.read api.write.incidents');
    const writer = await connect(token);
    await callRefused(writer, 'acknowledge_incident', { id: incident.publicId }, 403, 'agentTokenReadOnly');
    expect(await toolNames(writer)).to.deep.equal(sorted(PUBLIC_TOOLS, READ_TOOLS));

    await withPlatformSwitches({ agentWritesEnabled: true }, async () => {
      await callRefused(reader, 'acknowledge_incident', { id: incident.publicId }, 403, 'agentTokenScopeForbidden');
      await callRefused(writer, 'pause_monitor', { id: website.publicId }, 403, 'agentTokenScopeForbidden');
      expect(await toolNames(writer)).to.deep.equal(sorted(PUBLIC_TOOLS, READ_TOOLS, INCIDENT_WRITES));
      const acknowledged = await callOk(writer, 'acknowledge_incident', { id: incident.publicId });
      expect(acknowledged).to.include({ publicId: incident.publicId, status: 'acknowledged' });
      // Arguments the tool does not take are refused by the protocol; the route's own schemas judge the rest.
      await expectRejected(
        writer.callTool({ name: 'acknowledge_incident', arguments: { id: incident.publicId, note: 'x' } }),
        /no argument note/,
      );
      await callRefused(writer, 'list_incidents', { status: 'sleeping' }, 400, 'validationFailed');
    });
    const read = await api('GET', `/api/incidents/${incident.publicId}`, { token: org.token });
    expect(read.body.status).to.equal('acknowledged');
  });

  it('pauses a monitor for an organization token, and records every tool call in the audit log with the change', async () => {
    const { org, website } = await aMonitoredOrganization();
    const admin = await connect(org.token);
    expect(await callOk(admin, 'pause_monitor', { id: website.publicId })).to.include({ publicId: website.publicId, status: 'paused' });
    expect((await api('GET', `/api/websites/${website.publicId}`, { token: org.token })).body.status).to.equal('paused');
    await callRefused(admin, 'get_monitor', { id: 'no-such-monitor' }, 404);

    const log = await api('GET', '/api/audit-log', { token: org.token, query: { perPage: '200' } });
    const calls = log.body.items.filter((entry: any) => entry.action === 'toolCalled');
    expect(calls.map((entry: any) => entry.resourceId)).to.deep.equal(['get_monitor', 'pause_monitor']);
    expect(calls[1]).to.deep.include({ resourceType: 'mcpTool', actor: calls[1].actor });
    expect(calls[1].actor).to.include({ type: 'user', label: org.email });
    const change = log.body.items.find((entry: any) => entry.action === 'updated' && entry.resourceId === website.publicId);
    expect(change.changes.status).to.deep.equal({ before: 'active', after: 'paused' });
    expect(change.requestId).to.equal(calls[1].requestId);
  });

  it("records an agent's calls as the agent's, its authorizing user named, refused calls included", async () => {
    const { org, website } = await aMonitoredOrganization();
    const reader = await connect(await aClaimedAgentToken(org));
    await callRefused(reader, 'list_customers', {}, 403, 'agentTokenReadOnly');
    await callOk(reader, 'get_monitor', { id: website.publicId });

    const log = await api('GET', '/api/audit-log', { token: org.token, query: { action: 'toolCalled' } });
    expect(log.body.items.map((entry: any) => entry.resourceId)).to.deep.equal(['get_monitor', 'list_customers']);
    const [read, refused] = log.body.items;
    expect(read.actor).to.include({ type: 'agent', userId: org.user.id, label: org.email });
    expect(read.actor.credential).to.include({ type: 'agent' });
    expect(read.actor.credential.id).to.be.a('string').and.equal(refused.actor.credential.id);
    expect(read.requestId).to.be.a('string').and.not.equal(refused.requestId);
  });

  it('lists nothing to an agent token and answers its calls 503 while agent auth is off, as the API does', async () => {
    const { org, website } = await aMonitoredOrganization();
    const reader = await connect(await aClaimedAgentToken(org));
    await withPlatformSwitches({ agentAuthEnabled: false }, async () => {
      expect(await toolNames(reader)).to.deep.equal([]);
      await callRefused(reader, 'get_monitor', { id: website.publicId }, 503);
    });
    expect((await callOk(reader, 'get_monitor', { id: website.publicId })).publicId).to.equal(website.publicId);
  });

  it('counts tool calls against the API rate limit of the public tools', async () => {
    awayFromMinuteBoundary();
    const token = await anAccessToken((await anAnonymousAgent()).identity_assertion);
    for (let call = 0; call < 30; call++) {
      const answer = await api('GET', '/api/tools/dns-lookup', { token, query: { domain: 'www.monitor-fixture.com' } });
      expect(answer.status).to.equal(200);
    }
    const client = await connect(token);
    const refused = await callRefused(client, 'dns_lookup', { domain: 'www.monitor-fixture.com' }, 429, 'rateLimited');
    expect(refused.data.retryAfter).to.be.a('number');
  });

  it('answers 404 on another host, 405 to GET, and 400 in the envelope to what is no MCP message', async () => {
    const { org } = await aMonitoredOrganization();
    expectError(await agentApi('POST', '/mcp', { host: 'status.customer.example', token: org.token, json: {} }), 404);
    const get = await agentApi('GET', '/mcp', { token: org.token });
    expectError(get, 405, 'methodNotAllowed');
    expect(get.headers.get('allow')).to.equal('POST');
    expectError(await agentApi('POST', '/mcp', { token: org.token, json: { hello: 'world' } }), 400, 'validationFailed');
    const unknownVersion = await agentApi('POST', '/mcp', {
      token: org.token,
      headers: { 'mcp-protocol-version': '1999-01-01' },
      json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expectError(unknownVersion, 400, 'validationFailed');
  });
});
