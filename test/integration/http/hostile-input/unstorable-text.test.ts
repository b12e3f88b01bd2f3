import { expect } from 'chai';
import { api, expectError, type ApiResponse } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCallerSet } from '../../../support/callers';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { agentApi } from '../../../support/agent-http';

const NUL = 'ab\u0000cd';
const LONE_HIGH = 'ab\ud800cd';
const LONE_LOW = 'ab\udc00cd';

/** 400 validationFailed in the envelope, with one issue at `path` (zod's issue shape). */
function expectRefused(response: ApiResponse, path: Array<string | number>): void {
  expectError(response, 400, 'validationFailed');
  const issues = response.body.data.issues as Array<{ path: string[]; message: string; code: string }>;
  expect(issues).to.have.length(1);
  expect(issues[0]!.path).to.deep.equal(path.map(String));
  expect(issues[0]!.message).to.be.a('string').and.not.equal('');
  expect(issues[0]!.code).to.equal('custom');
}

describe('text PostgreSQL cannot store (NUL, lone surrogates) is refused with 400 validationFailed on every route', () => {
  it('POST and PATCH /api/organization/tokens: a NUL in the name, nothing minted or renamed', async () => {
    const org = await anOrganization();
    expectRefused(await api('POST', '/api/organization/tokens', { token: org.token, body: { name: NUL } }), ['name']);
    expect((await api('GET', '/api/organization/tokens', { token: org.token })).body.items).to.deep.equal([]);
    const minted = await api('POST', '/api/organization/tokens', { token: org.token, body: { name: 'deploy' } });
    expect(minted.status).to.equal(201);
    expectRefused(await api('PATCH', `/api/organization/tokens/${minted.body.id}`, { token: org.token, body: { name: NUL } }), ['name']);
    const listed = await api('GET', '/api/organization/tokens', { token: org.token });
    expect(listed.body.items.map((t: { name: string }) => t.name)).to.deep.equal(['deploy']);
  });

  it('lone surrogates, high or low, in a body string', async () => {
    const org = await anOrganization();
    expectRefused(await api('POST', '/api/organization/tokens', { token: org.token, body: { name: LONE_HIGH } }), ['name']);
    expectRefused(await api('POST', '/api/organization/tokens', { token: org.token, body: { name: LONE_LOW } }), ['name']);
    expectRefused(
      await api('POST', '/api/customers', {
        token: org.token,
        body: { name: 'Acme', email: 'ops@acme.test', companyName: `x${LONE_HIGH}` },
      }),
      ['companyName'],
    );
    const paired = await api('POST', '/api/organization/tokens', { token: org.token, body: { name: 'rocket \ud83d\ude80' } });
    expect(paired.status, 'a surrogate pair is ordinary text').to.equal(201);
    expect(paired.body.name).to.equal('rocket \ud83d\ude80');
  });

  it('POST /api/customers: NUL in a field and in a nested object key; no customer is created', async () => {
    const org = await anOrganization();
    expectRefused(await api('POST', '/api/customers', { token: org.token, body: { name: NUL, email: 'ops@acme.test' } }), ['name']);
    expectRefused(
      await api('POST', '/api/customers', {
        token: org.token,
        body: { name: 'Acme', email: 'ops@acme.test', customFields: { [NUL]: 'x' } },
      }),
      ['customFields', NUL],
    );
    expectRefused(
      await api('POST', '/api/customers/bulk', {
        token: org.token,
        body: {
          customers: [
            { name: 'Ok', email: 'ok@acme.test' },
            { name: NUL, email: 'b@acme.test' },
          ],
        },
      }),
      ['customers', 1, 'name'],
    );
    expect((await api('GET', '/api/customers', { token: org.token })).body).to.deep.equal([]);
  });

  it('a query string and a path segment carrying %00', async () => {
    const org = await anOrganization();
    expectRefused(await api('GET', '/api/websites', { token: org.token, query: { search: NUL } }), ['search']);
    expectRefused(await api('GET', '/api/customer-domains?search=a%00b&search=c', { token: org.token }), ['search', 0]);
    expectRefused(await api('GET', '/api/customers/ab%00cd', { token: org.token }), []);
    expectRefused(await api('GET', '/status/ab%00cd'), []);
  });

  it('form bodies too (POST /oauth2/token)', async () => {
    expectRefused(await agentApi('POST', '/oauth2/token', { form: { grant_type: 'client_credentials', client_id: NUL } }), ['client_id']);
  });

  it('POST /api/im/events (a body the service streams itself): NUL in a value or a key, no incident opened', async () => {
    const callers = await aCallerSet();
    await setIncidentManagement(callers.organizationId, true);
    const event = (summary: string, details: Record<string, unknown> = {}) => ({
      routing_key: 'samplekeyhere0123456789abcdef012',
      event_action: 'trigger',
      dedup_key: 'unstorable',
      payload: { summary, source: 'host1', severity: 'info', custom_details: details },
    });
    expectRefused(await api('POST', '/api/im/events', { token: callers.orgToken, body: event(NUL) }), ['payload', 'summary']);
    expectRefused(await api('POST', '/api/im/events', { token: callers.orgToken, body: event('ok', { [LONE_LOW]: 1 }) }), [
      'payload',
      'custom_details',
      LONE_LOW,
    ]);
    const incidents = await api('GET', '/api/im/incidents', { token: callers.admin });
    expect(incidents.body.items.filter((i: { dedupKey: string }) => i.dedupKey === 'unstorable')).to.deep.equal([]);
  });
});
