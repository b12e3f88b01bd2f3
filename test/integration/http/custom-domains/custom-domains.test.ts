import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { api, expectError } from '../../../support/http-client';
import { agentApi } from '../../../support/agent-http';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken, aMember } from '../../../support/identity-fixtures';
import { aCustomer } from '../../../support/callers';
import { testDnsServer } from '../../../support/test-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const FIELDS = [
  'id',
  'hostname',
  'kind',
  'statusPageId',
  'customerId',
  'status',
  'verification',
  'expiresAt',
  'verifiedAt',
  'activatedAt',
  'createdAt',
  'updatedAt',
];

/** A hostname nobody else in the run uses. */
const aHostname = (label = 'status') => `${label}-${randomBytes(4).toString('hex')}.acme-agency.com`;

/** Publishes TXT values at the entry's verification name in the service's resolver. */
async function publish(recordName: string, ...values: string[]) {
  (await testDnsServer()).set(recordName, { TXT: values });
}

async function aDomain(token: string, hostname = aHostname()) {
  const response = await api('POST', '/api/custom-domains', { token, body: { hostname, kind: 'whiteLabel' } });
  expect(response.status, JSON.stringify(response.body)).to.equal(201);
  return response.body;
}

/** An active white-label entry: added, its record published, activated. */
async function anActiveDomain(token: string, hostname = aHostname()) {
  const domain = await aDomain(token, hostname);
  await publish(domain.verification.recordName, domain.verification.recordValue);
  const response = await api('POST', `/api/custom-domains/${domain.id}/activate`, { token });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body;
}

describe('custom domains (HTTP)', () => {
  it('adds a pending white-label entry with the TXT record to publish, and reads it back', async () => {
    const org = await anOrganization();
    const hostname = aHostname();
    const response = await api('POST', '/api/custom-domains', {
      token: org.token,
      body: { hostname: `${hostname.toUpperCase()}.`, kind: 'whiteLabel' },
    });
    expect(response.status).to.equal(201);
    const domain = response.body;
    expect(domain).to.have.all.keys(FIELDS);
    expect(domain).to.deep.include({
      hostname,
      kind: 'whiteLabel',
      statusPageId: null,
      customerId: null,
      status: 'pending',
      verifiedAt: null,
      activatedAt: null,
    });
    expect(domain.id).to.match(UUID);
    expect(domain.verification).to.deep.equal({
      recordType: 'TXT',
      recordName: `_monitoring-verify.${hostname}`,
      recordValue: domain.verification.recordValue,
    });
    expect(domain.verification.recordValue).to.match(/^mv-[0-9a-f]{32}$/);
    expect(new Date(domain.expiresAt).getTime() - new Date(domain.createdAt).getTime()).to.equal(7 * 24 * 3600_000);
    for (const field of ['createdAt', 'updatedAt', 'expiresAt']) expect(domain[field]).to.match(ISO);
    expect((await api('GET', `/api/custom-domains/${domain.id}`, { token: org.token })).body).to.deep.equal(domain);
    expect((await api('GET', '/api/custom-domains', { token: org.token })).body.items).to.deep.equal([domain]);
  });

  it('stores an international name as punycode', async () => {
    const org = await anOrganization();
    const suffix = randomBytes(3).toString('hex');
    const response = await api('POST', '/api/custom-domains', {
      token: org.token,
      body: { hostname: `status.bücher-${suffix}.de`, kind: 'whiteLabel' },
    });
    expect(response.status).to.equal(201);
    expect(response.body.hostname).to.match(/^status\.xn--bcher-.*-\w+\.de$/);
    expect(response.body.hostname).to.not.include('ü');
  });

  it('answers 400 invalidHostname for a port, an IP address, a single label or a private-use name', async () => {
    const org = await anOrganization();
    for (const hostname of ['status.acme.com:8443', '203.0.113.10', 'intranet', 'nas.local', 'https://acme.com/']) {
      expectError(
        await api('POST', '/api/custom-domains', { token: org.token, body: { hostname, kind: 'whiteLabel' } }),
        400,
        'invalidHostname',
      );
    }
  });

  it('answers 400 invalidHostname naming the field for a name with a path, a query, a fragment or a user, never claiming the name cut out of it', async () => {
    const org = await anOrganization();
    const suffix = randomBytes(3).toString('hex');
    for (const hostname of [
      `status-${suffix}.example.com/x`,
      `status-${suffix}.example.com?x=1`,
      `status-${suffix}.example.com#x`,
      `ops@status-${suffix}.example.com`,
    ]) {
      const answer = await api('POST', '/api/custom-domains', { token: org.token, body: { hostname, kind: 'whiteLabel' } });
      expectError(answer, 400, 'invalidHostname');
      expect(answer.body.data).to.include({ field: '/hostname', hostname });
    }
    const listed = await api('GET', '/api/custom-domains', { token: org.token });
    expect(JSON.stringify(listed.body)).to.not.include(`status-${suffix}`);
  });

  it('answers 400 hostnameReserved for the platform host and its subdomains', async () => {
    const org = await anOrganization();
    for (const hostname of ['api.test.example', 'acme.api.test.example', 'API.TEST.EXAMPLE.']) {
      expectError(
        await api('POST', '/api/custom-domains', { token: org.token, body: { hostname, kind: 'whiteLabel' } }),
        400,
        'hostnameReserved',
      );
    }
    expect((await api('GET', '/api/custom-domains', { token: org.token })).body.items).to.deep.equal([]);
  });

  it('answers 409 customDomainExists for the same hostname twice in one organization', async () => {
    const org = await anOrganization();
    const domain = await aDomain(org.token);
    expectError(
      await api('POST', '/api/custom-domains', { token: org.token, body: { hostname: domain.hostname, kind: 'whiteLabel' } }),
      409,
      'customDomainExists',
    );
  });

  it('answers 400 validationFailed for a status page entry without a page, and 400 statusPageNotFound for an unknown page', async () => {
    const org = await anOrganization();
    const hostname = aHostname();
    expectError(
      await api('POST', '/api/custom-domains', { token: org.token, body: { hostname, kind: 'statusPage' } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('POST', '/api/custom-domains', { token: org.token, body: { hostname, kind: 'whiteLabel', statusPageId: 'x' } }),
      400,
      'validationFailed',
    );
    expectError(
      await api('POST', '/api/custom-domains', { token: org.token, body: { hostname, kind: 'statusPage', statusPageId: randomUUID() } }),
      400,
      'statusPageNotFound',
    );
    expectError(
      await api('POST', '/api/custom-domains', { token: org.token, body: { hostname, kind: 'mirror' } }),
      400,
      'validationFailed',
    );
  });

  it('white-label entries are for organization admins (403 roleForbidden for an editor or a customer-scoped caller)', async () => {
    const org = await anOrganization();
    const editor = await aMember(org, 'editor');
    const customerToken = await aCustomerToken(org.token, (await aCustomer(org.token)).id);
    expectError(
      await api('POST', '/api/custom-domains', { token: editor.token, body: { hostname: aHostname(), kind: 'whiteLabel' } }),
      403,
      'roleForbidden',
    );
    expectError(
      await api('POST', '/api/custom-domains', { token: customerToken, body: { hostname: aHostname(), kind: 'whiteLabel' } }),
      403,
      'roleForbidden',
    );
    const domain = await aDomain(org.token);
    expectError(await api('DELETE', `/api/custom-domains/${domain.id}`, { token: editor.token }), 403, 'roleForbidden');
    expectError(await api('GET', `/api/custom-domains/${domain.id}`, { token: customerToken }), 404, 'customDomainNotFound');
    expect((await api('GET', '/api/custom-domains', { token: customerToken })).body.items).to.deep.equal([]);
  });

  it("answers 404 customDomainNotFound for an unknown id and for another organization's entry", async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const domain = await aDomain(other.token);
    for (const id of [randomUUID(), domain.id, 'not-a-uuid']) {
      expectError(await api('GET', `/api/custom-domains/${id}`, { token: org.token }), 404, 'customDomainNotFound');
      expectError(await api('POST', `/api/custom-domains/${id}/verify`, { token: org.token }), 404, 'customDomainNotFound');
    }
    expectError(await api('DELETE', `/api/custom-domains/${domain.id}`, { token: org.token }), 404, 'customDomainNotFound');
    expect((await api('GET', `/api/custom-domains/${domain.id}`, { token: other.token })).status).to.equal(200);
  });

  it('verify answers 422 customDomainVerificationFailed saying what to publish, then verifies once the TXT record is there', async () => {
    const org = await anOrganization();
    const domain = await aDomain(org.token);
    const { recordName, recordValue } = domain.verification;
    const missing = await api('POST', `/api/custom-domains/${domain.id}/verify`, { token: org.token });
    expectError(missing, 422, 'customDomainVerificationFailed');
    expect(missing.body.data).to.deep.equal({
      code: 'customDomainVerificationFailed',
      recordName,
      recordType: 'TXT',
      expectedValue: recordValue,
      reason: 'recordMissing',
    });
    await publish(recordName, 'mv-00000000000000000000000000000000');
    const wrong = await api('POST', `/api/custom-domains/${domain.id}/verify`, { token: org.token });
    expectError(wrong, 422, 'customDomainVerificationFailed');
    expect(wrong.body.data.reason).to.equal('tokenMismatch');

    await publish(recordName, 'v=spf1 -all', recordValue);
    const verified = await api('POST', `/api/custom-domains/${domain.id}/verify`, { token: org.token });
    expect(verified.status).to.equal(200);
    expect(verified.body).to.deep.include({ status: 'verified', expiresAt: null, activatedAt: null });
    expect(verified.body.verifiedAt).to.match(ISO);
    expect((await api('GET', `/api/custom-domains/${domain.id}`, { token: org.token })).body.status).to.equal('verified');
  });

  it('activate moves a verified entry to active; a pending one is verified on the way', async () => {
    const org = await anOrganization();
    const domain = await aDomain(org.token);
    expectError(
      await api('POST', `/api/custom-domains/${domain.id}/activate`, { token: org.token }),
      422,
      'customDomainVerificationFailed',
    );
    await publish(domain.verification.recordName, domain.verification.recordValue);
    const active = await api('POST', `/api/custom-domains/${domain.id}/activate`, { token: org.token });
    expect(active.status).to.equal(200);
    expect(active.body.status).to.equal('active');
    expect(active.body.verifiedAt).to.match(ISO);
    expect(active.body.activatedAt).to.match(ISO);
    expect((await api('POST', `/api/custom-domains/${domain.id}/activate`, { token: org.token })).body.status).to.equal('active');
  });

  it('answers 409 domainAlreadyClaimed to another organization once the hostname is verified, on add and on verify', async () => {
    const holder = await anOrganization('holder');
    const latecomer = await anOrganization('latecomer');
    const hostname = aHostname();
    const pending = await aDomain(latecomer.token, hostname); // pending entries block nobody
    await anActiveDomain(holder.token, hostname);
    await publish(pending.verification.recordName, pending.verification.recordValue);
    expectError(await api('POST', `/api/custom-domains/${pending.id}/verify`, { token: latecomer.token }), 409, 'domainAlreadyClaimed');
    expectError(
      await api('POST', '/api/custom-domains', { token: latecomer.token, body: { hostname, kind: 'whiteLabel' } }),
      409,
      'domainAlreadyClaimed',
    );
  });

  it('two organizations verifying one hostname at the same moment end with exactly one claim', async () => {
    const hostname = aHostname('race');
    const orgs = await Promise.all([anOrganization('racer-a'), anOrganization('racer-b')]);
    const entries = await Promise.all(orgs.map((org) => aDomain(org.token, hostname)));
    await publish(entries[0].verification.recordName, ...entries.map((entry) => entry.verification.recordValue));
    const answers = await Promise.all(
      entries.map((entry, i) => api('POST', `/api/custom-domains/${entry.id}/verify`, { token: orgs[i]!.token })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses, JSON.stringify(answers.map((a) => a.body))).to.deep.equal([200, 409]);
    const loser = answers.findIndex((answer) => answer.status === 409);
    expectError(answers[loser]!, 409, 'domainAlreadyClaimed');
    const after = await Promise.all(entries.map((entry, i) => api('GET', `/api/custom-domains/${entry.id}`, { token: orgs[i]!.token })));
    expect(after.map((a) => a.body.status).sort()).to.deep.equal(['pending', 'verified']);
  });

  it('on an active custom domain, discovery and agent endpoints answer 404 without a code; the API is served as usual', async () => {
    const org = await anOrganization();
    const domain = await anActiveDomain(org.token);
    for (const [method, path] of [
      ['GET', '/.well-known/oauth-authorization-server'],
      ['GET', '/.well-known/oauth-protected-resource'],
      ['GET', '/.well-known/jwks.json'],
      ['GET', '/auth.md'],
      ['POST', '/agent/identity'],
      ['POST', '/oauth2/token'],
      ['POST', '/oauth2/revoke'],
      ['GET', '/api/agent-claim/context'],
    ] as const) {
      const response = await agentApi(method, path, { host: domain.hostname, json: method === 'POST' ? { type: 'anonymous' } : undefined });
      expectError(response, 404);
    }
    expect((await agentApi('GET', '/.well-known/oauth-authorization-server')).status).to.equal(200);
    const organization = await agentApi('GET', '/api/organization', { host: `${domain.hostname.toUpperCase()}:443`, token: org.token });
    expect(organization.status, organization.text).to.equal(200);
  });

  it('GET /internal/tls-ask answers 200 only for active custom domains', async () => {
    const org = await anOrganization();
    const active = await anActiveDomain(org.token);
    const pending = await aDomain(org.token);
    const ok = await api('GET', '/internal/tls-ask', { query: { domain: active.hostname } });
    expect(ok.status).to.equal(200);
    expect(ok.body).to.deep.equal({ hostname: active.hostname });
    for (const domain of [pending.hostname, 'api.test.example', 'unknown.example.org', '127.0.0.1']) {
      expectError(await api('GET', '/internal/tls-ask', { query: { domain } }), 404, 'customDomainNotFound');
    }
    expectError(await api('GET', '/internal/tls-ask'), 400, 'validationFailed');
  });

  it('DELETE removes the entry: the host stops answering as a custom domain and another organization may claim it', async () => {
    const org = await anOrganization();
    const other = await anOrganization('other');
    const domain = await anActiveDomain(org.token);
    const removed = await api('DELETE', `/api/custom-domains/${domain.id}`, { token: org.token });
    expect(removed.status).to.equal(200);
    expect(removed.body).to.deep.equal({ success: true, id: domain.id });
    expectError(await api('GET', `/api/custom-domains/${domain.id}`, { token: org.token }), 404, 'customDomainNotFound');
    expectError(await api('GET', '/internal/tls-ask', { query: { domain: domain.hostname } }), 404, 'customDomainNotFound');
    expect((await aDomain(other.token, domain.hostname)).status).to.equal('pending');
  });
});
