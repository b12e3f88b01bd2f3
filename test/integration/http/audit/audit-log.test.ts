import { expect } from 'chai';
import { api, expectError } from '../../../support/http-client';
import { anOrganization, type SignedUp } from '../../../support/builders';
import { aCustomer } from '../../../support/callers';
import { aCustomerToken, aMember, anOrgToken, PASSWORD } from '../../../support/identity-fixtures';
import { aMonitoredCustomer, aWebsite, PUBLIC_URL, withAgentWrites } from '../../../support/monitoring-fixtures';
import { approvedClient } from '../../../support/agent-fixtures';
import { testServer } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';

type Entry = Record<string, any>;

async function entries(token: string, query = ''): Promise<{ items: Entry[]; total: number }> {
  const response = await api('GET', `/api/audit-log?perPage=200${query}`, { token });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body;
}

/** Runs an action and answers the entries it added to the organization's log (newest first). */
async function entriesOf(org: SignedUp, action: () => Promise<unknown>): Promise<Entry[]> {
  const before = await entries(org.token);
  await action();
  const after = await entries(org.token);
  const known = new Set(before.items.map((e) => e.id));
  return after.items.filter((e) => !known.has(e.id));
}

async function ok(response: Promise<{ status: number; body: any }>, status = [200, 201, 204]): Promise<any> {
  const answer = await response;
  if (!status.includes(answer.status)) throw new Error(`unexpected ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

describe('audit log', () => {
  it('records each change as exactly one entry: who, through which credential, what changed, from where', async () => {
    const org = await anOrganization('audit');
    const customer = await aMonitoredCustomer(org.token);

    let tag: Entry = {};
    const created = await entriesOf(org, async () => {
      tag = await ok(api('POST', '/api/tags', { token: org.token, body: { name: 'prod', color: '#3B82F6', customerId: customer.id } }));
    });
    expect(created).to.have.length(1);
    const [entry] = created;
    expect(entry).to.deep.include({ resourceType: 'tag', resourceId: tag.publicId ?? String(tag.id), action: 'created' });
    expect(entry!.actor).to.deep.equal({
      type: 'user',
      userId: org.user.id,
      label: org.email,
      credential: { type: 'session', id: null },
    });
    expect(entry!.changes.name).to.deep.equal({ before: null, after: 'prod' });
    expect(entry!.ip).to.be.a('string');
    expect(entry!.requestId).to.be.a('string').and.not.empty;
    expect(Date.parse(entry!.occurredAt)).to.be.closeTo(Date.now(), 60_000);

    const renamed = await entriesOf(org, () =>
      ok(
        api('PATCH', `/api/tags/${tag.publicId ?? tag.id}`, {
          token: org.token,
          body: { name: 'production' },
        }),
      ),
    );
    expect(renamed).to.have.length(1);
    expect(renamed[0]).to.deep.include({ resourceType: 'tag', action: 'updated' });
    expect(renamed[0]!.changes).to.deep.equal({ name: { before: 'prod', after: 'production' } });

    const deleted = await entriesOf(org, () => ok(api('DELETE', `/api/tags/${tag.publicId ?? tag.id}`, { token: org.token })));
    expect(deleted).to.have.length(1);
    expect(deleted[0]).to.deep.include({ resourceType: 'tag', action: 'deleted' });
    expect(deleted[0]!.changes.name).to.deep.equal({ before: 'production', after: null });
  });

  it("records a change through an API token as the token's, with its id", async () => {
    const org = await anOrganization('audit-token');
    const token = await anOrgToken(org.token, { name: 'deploy bot' });
    const tokens = await ok(api('GET', '/api/organization/tokens', { token: org.token }));
    const tokenId = (Array.isArray(tokens) ? tokens : tokens.items).find((t: Entry) => t.name === 'deploy bot').id;
    await aCustomer(org.token, { name: 'First' }); // the first customer also makes the built-in package: two resources
    const added = await entriesOf(org, () => aCustomer(token, { name: 'Via token' }));
    expect(added).to.have.length(1);
    expect(added[0]).to.deep.include({ resourceType: 'customer', action: 'created' });
    expect(added[0]!.actor).to.deep.equal({
      type: 'apiToken',
      userId: org.user.id,
      label: org.email,
      credential: { type: 'apiToken', id: String(tokenId) },
    });
    expect(added[0]!.customerId).to.be.a('number');
  });

  it("records a change through an agent as the agent's, on behalf of the user who approved it", async () => {
    const org = await anOrganization('audit-agent');
    const customer = await aMonitoredCustomer(org.token);
    await aWebsite(org.token, { customerId: customer.id });
    const { token } = await approvedClient(org, 'audit-agent', 'api.read api.write.monitors');
    let site: Entry = {};
    const added = await entriesOf(org, () =>
      withAgentWrites(async () => {
        site = await ok(api('POST', '/api/websites', { token, body: { customerId: customer.id, url: PUBLIC_URL } }));
      }),
    );
    const monitorEntries = added.filter((e) => e.resourceType === 'monitor');
    expect(monitorEntries).to.have.length(1);
    expect(monitorEntries[0]).to.deep.include({ resourceId: site.publicId, action: 'created' });
    expect(monitorEntries[0]!.actor).to.deep.include({ type: 'agent', userId: org.user.id });
    expect(monitorEntries[0]!.actor.credential.type).to.equal('agent');
    expect(monitorEntries[0]!.actor.credential.id).to.be.a('string');
  });

  it('writes secrets redacted: a heartbeat token, a channel signing secret and URL, a token hash', async () => {
    const org = await anOrganization('audit-secrets');
    const customer = await aMonitoredCustomer(org.token);
    let heartbeat: Entry = {};
    const monitorEntries = await entriesOf(org, async () => {
      heartbeat = await aWebsite().forCustomer(customer.id).heartbeat(5).create(org.token);
    });
    expect(monitorEntries).to.have.length(1);
    expect(monitorEntries[0]).to.deep.include({ resourceType: 'monitor', resourceId: heartbeat.publicId, action: 'created' });
    expect(monitorEntries[0]!.changes.heartbeatToken).to.deep.equal({ before: null, after: '[redacted]' });

    let channel: Entry = {};
    const channelEntries = await entriesOf(org, async () => {
      channel = await ok(
        api('POST', '/api/notification-channels', {
          token: org.token,
          body: { name: 'hook', type: 'webhook', config: { url: 'https://hooks.audit-example.com/in/s3cr3t-path' } },
        }),
      );
    });
    expect(channelEntries).to.have.length(1);
    expect(channelEntries[0]!.changes.config.after.url).to.equal('[redacted]');

    let minted = '';
    const tokenEntries = await entriesOf(org, async () => {
      minted = await anOrgToken(org.token, { name: 'ci' });
    });
    expect(tokenEntries).to.have.length(1);
    expect(tokenEntries[0]).to.deep.include({ resourceType: 'apiToken', action: 'created' });
    expect(tokenEntries[0]!.changes.tokenHash).to.deep.equal({ before: null, after: '[redacted]' });

    const everything = JSON.stringify((await entries(org.token)).items);
    const secrets = [heartbeat.heartbeatToken, channel.signingSecret, minted, 's3cr3t-path'].filter(Boolean);
    expect(secrets.length).to.be.at.least(3);
    for (const secret of secrets) expect(everything).not.to.include(secret);
    const hashes = await (
      await testServer()
    ).database.sql.query<{ token_hash: string }>(sql`SELECT token_hash FROM api_tokens WHERE organization_id = ${org.user.organizationId}`);
    for (const { token_hash } of hashes) expect(everything).not.to.include(token_hash);
  });

  it('records sign-ins and failed sign-ins, and a token revocation', async () => {
    const org = await anOrganization('audit-signin');
    const signIns = await entriesOf(org, async () => {
      await ok(api('POST', '/api/auth/sign-in/email', { body: { email: org.email, password: PASSWORD } }));
      const failed = await api('POST', '/api/auth/sign-in/email', { body: { email: org.email, password: 'not the password' } });
      expectError(failed, 401, 'invalidCredentials');
    });
    expect(signIns.map((e) => e.action).sort()).to.deep.equal(['signInFailed', 'signedIn']);
    const failed = signIns.find((e) => e.action === 'signInFailed')!;
    expect(failed).to.deep.include({ resourceType: 'user', resourceId: org.user.id });
    expect(failed.actor).to.include({ type: 'anonymous', label: org.email });

    await anOrgToken(org.token, { name: 'to revoke' });
    const list = await ok(api('GET', '/api/organization/tokens', { token: org.token }));
    const id = (Array.isArray(list) ? list : list.items).find((t: Entry) => t.name === 'to revoke').id;
    const revoked = await entriesOf(org, () => ok(api('DELETE', `/api/organization/tokens/${id}`, { token: org.token })));
    expect(revoked).to.have.length(1);
    expect(revoked[0]).to.deep.include({ resourceType: 'apiToken', resourceId: String(id) });
  });

  it('records nothing for reads and for refused changes', async () => {
    const org = await anOrganization('audit-nothing');
    const none = await entriesOf(org, async () => {
      await ok(api('GET', '/api/customers', { token: org.token }));
      expectError(
        await api('POST', '/api/customers', {
          token: org.token,
          body: { name: 'X', email: 'x@x.test', packageType: 'no-such-package' },
        }),
        400,
        'invalidPackageType',
      );
    });
    expect(none).to.deep.equal([]);
  });

  it('lists a part of a resource under its parent: a tag attached to a monitor is one change of the monitor', async () => {
    const org = await anOrganization('audit-parts');
    const customer = await aMonitoredCustomer(org.token);
    const site = await aWebsite().forCustomer(customer.id).create(org.token);
    const tag = await ok(api('POST', '/api/tags', { token: org.token, body: { name: 'edge', color: '#3B82F6', customerId: customer.id } }));
    const attached = await entriesOf(org, () =>
      ok(
        api('POST', '/api/monitor-tags', {
          token: org.token,
          body: { tagId: tag.publicId ?? tag.id, monitorId: site.publicId, monitorType: 'website' },
        }),
      ),
    );
    expect(attached).to.have.length(1);
    expect(attached[0]).to.deep.include({ resourceType: 'monitor', resourceId: site.publicId, action: 'updated' });
    expect(Object.keys(attached[0]!.changes)).to.have.length(1);
    expect(Object.keys(attached[0]!.changes)[0]).to.match(/^tags\./);
  });

  it("is for admins: others get 403 roleForbidden; a customer-scoped caller reads its customer's entries only", async () => {
    const org = await anOrganization('audit-scope');
    const mine = await aCustomer(org.token, { name: 'Mine' });
    const theirs = await aCustomer(org.token, { name: 'Theirs' });
    const editor = await aMember(org, 'editor');
    expectError(await api('GET', '/api/audit-log', { token: editor.token }), 403, 'roleForbidden');

    const scoped = await aCustomerToken(org.token, mine.id);
    const seen = await entries(scoped);
    expect(seen.items.length).to.be.greaterThan(0);
    for (const entry of seen.items) expect(entry.customerId).to.equal(mine.id);
    expect(seen.items.some((e) => e.resourceId === theirs.publicId)).to.equal(false);

    const stranger = await anOrganization('audit-stranger');
    const foreign = await entries(stranger.token, `&resourceId=${mine.publicId}`);
    expect(foreign).to.deep.include({ total: 0, items: [] });
  });

  it('filters by actor, resource, action and time range, pages, and refuses a reversed range', async () => {
    const org = await anOrganization('audit-filter');
    const editor = await aMember(org, 'admin');
    const first = await aCustomer(org.token, { name: 'First' });
    await aCustomer(editor.token, { name: 'Second' });
    const byEditor = await entries(org.token, `&actor=${encodeURIComponent(editor.email)}&resourceType=customer`);
    expect(byEditor.items.map((e) => e.changes.name.after)).to.deep.equal(['Second']);
    const byId = await entries(org.token, `&resourceId=${first.publicId}&action=created`);
    expect(byId.total).to.equal(1);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await entries(org.token, `&from=${encodeURIComponent(future)}`)).total).to.equal(0);
    const page = await api('GET', '/api/audit-log?perPage=1&page=2&resourceType=customer', { token: org.token });
    expect(page.body).to.deep.include({ page: 2, perPage: 1, total: 2 });
    expect(page.body.items).to.have.length(1);
    expectError(
      await api('GET', `/api/audit-log?from=${encodeURIComponent(future)}&to=${encodeURIComponent(new Date().toISOString())}`, {
        token: org.token,
      }),
      400,
      'invalidDateRange',
    );
  });
});
