import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { api, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMonitorPackage, aMonitoredCustomer } from '../../../support/monitoring-fixtures';
import { useLoopbackChecks } from '../../../support/loopback-checks';
import { anEngineFor, holdBackFromSchedule, runUntilRecorded, triggeredCheck } from '../../../support/engine-runs';
import { ApiPeer } from '../../../support/peers/api-peer';
import { aCustomerToken } from '../../../support/identity-fixtures';
import { testClock } from '../../../support/test-clock';
import { testServer } from '../../../support/test-server';
import { raw, sql } from '../../../../src/infrastructure/persistence/sql';
import { TARGET_POLICY } from '../../../../src/application/shared/target-policy';
import { ResolvingTargetPolicy } from '../../../../src/infrastructure/network/resolving-target-policy';

const LOCATION = 'eu-west';
const PUBLIC = 'https://www.monitor-fixture.com';

/** Every table of the database with a row whose text holds `text`. */
async function tablesHolding(text: string): Promise<string[]> {
  const { database } = await testServer();
  const tables = await database.sql.query<{ table_name: string }>(
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const holding: string[] = [];
  for (const { table_name } of tables) {
    const [hit] = await database.sql.query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM ${raw(`"${table_name}"`)} t WHERE t::text LIKE ${`%${text}%`}`,
    );
    if (hit!.n > 0) holding.push(table_name);
  }
  return holding;
}

async function anOrgWithCustomer(name: string) {
  const org = await anOrganization(name);
  const pkg = await aMonitorPackage(org.token);
  const customer = await aMonitoredCustomer(org.token, { packageId: pkg.id });
  return { customer, token: org.token };
}

/** Step 1 logs in with a secret and extracts the token; step 2 reads with it. */
const loginThenRead = (readAssertions: unknown[] = [{ type: 'jsonPath', path: '$.user.name', op: 'equals', value: 'Ann' }]) => [
  {
    name: 'log in',
    method: 'POST',
    url: `${PUBLIC}/login`,
    headers: { 'content-type': 'application/json' },
    body: '{"user":"ann","password":"{{secrets.password}}"}',
    extract: [{ variable: 'token', source: 'jsonPath', expression: '$.token' }],
    assertions: [{ type: 'status', equals: 200 }],
  },
  { name: 'read profile', url: `${PUBLIC}/me`, headers: { authorization: 'Bearer {{token}}' }, assertions: readAssertions },
];

describe('API check chains: api_chain websites validated on write, run by the engine, secrets never stored in the clear', () => {
  const secret = `s3cret-${randomUUID()}`;
  const peer = new ApiPeer(secret);
  const outside = new ApiPeer(secret, '127.0.0.2');
  const monitorIds = new Set<number>();

  before(async () => {
    await Promise.all([peer.start(), outside.start()]);
    await useLoopbackChecks({});
    // The checks' policy admits 127.0.0.1 only: 127.0.0.2 is a private address outside the allowlist.
    const refuseNames = {
      resolveAddresses: async () => {
        throw new Error('steps name addresses');
      },
    };
    (await testServer()).container.rebind(TARGET_POLICY).toConstantValue(new ResolvingTargetPolicy(refuseNames, ['127.0.0.1/32']));
  });
  after(async () => {
    await Promise.all([peer.stop(), outside.stop()]);
  });

  const create = (token: string, body: Record<string, unknown>) =>
    api('POST', '/api/websites', { token, body: { monitoringType: 'api_chain', locations: [LOCATION], timeoutSeconds: 10, ...body } });

  /** A chain created through the API (public URLs), then pointed at the loopback peers: step i at `hosts[i]` (default the peer). */
  async function aChain(token: string, customerId: number, steps: unknown[], hosts: string[] = [], more: Record<string, unknown> = {}) {
    const created = await create(token, { customerId, steps, secrets: { password: secret }, ...more });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const { database } = await testServer();
    const [row] = await database.sql.query<{ config: { steps: { url: string }[] } }>(
      sql`SELECT config FROM monitors WHERE id = ${created.body.id}`,
    );
    const config = row!.config;
    config.steps.forEach((step, i) => (step.url = step.url.replace(PUBLIC, hosts[i] ?? peer.url('').replace(/\/$/, ''))));
    await database.sql.query(sql`UPDATE monitors SET config = ${JSON.stringify(config)}::jsonb WHERE id = ${created.body.id}`);
    await holdBackFromSchedule(created.body.id);
    monitorIds.add(created.body.id);
    return created.body as { id: number; publicId: string };
  }

  const runNow = (token: string, publicId: string) => triggeredCheck(token, publicId, monitorIds, [LOCATION]);

  it('refuses bad definitions with 400 naming the step and the property', async () => {
    const { token, customer } = await anOrgWithCustomer('chain-validation');
    const body = { customerId: customer.id, secrets: { password: secret } };
    const issuesOf = async (extra: Record<string, unknown>) => {
      const response = await create(token, { ...body, ...extra });
      expectError(response, 400, 'validationFailed');
      return (response.body.data.issues as { path: unknown[]; message: string }[]).map((i) => [i.path, i.message]);
    };

    expect(await issuesOf({ steps: undefined })).to.deep.equal([[['steps'], 'Required for api_chain monitors']]);
    const [badPath] = loginThenRead([{ type: 'jsonPath', path: 'user.name', op: 'equals', value: 'Ann' }]).slice(1);
    expect(await issuesOf({ steps: [loginThenRead()[0], badPath] })).to.deep.equal([
      [['steps', '1', 'assertions', '0', 'path'], 'a JSON path starts with $'],
    ]);
    expect(await issuesOf({ steps: loginThenRead().slice(1) })).to.deep.equal([
      [['steps', '0', 'headers', 'authorization'], '{{token}} is not extracted by an earlier step'],
    ]);
    expect(await issuesOf({ steps: loginThenRead(), secrets: { apiKey: 'k' } })).to.deep.equal([
      [['steps', '0', 'body'], 'no secret named password (secrets: apiKey)'],
    ]);
    const shape = await issuesOf({ steps: [{ ...loginThenRead()[0], assertions: [{ type: 'bodySize', max: 3 }] }] });
    expect(shape[0]![0]).to.deep.equal(['steps', '0', 'assertions', '0', 'type']);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `s${i}`, url: `${PUBLIC}/${i}` }));
    expect((await issuesOf({ steps: eleven }))[0]![0]).to.deep.equal(['steps']);

    const local = await create(token, { ...body, steps: [loginThenRead()[0], { name: 'local', url: 'http://localhost:9/x' }] });
    expectError(local, 400, 'invalidUrl');
    expect(local.body.data).to.include({ field: '/steps/1/url', reason: 'reservedName' });
  });

  it('answers odd definitions with the error envelope (or drops what cannot be a header name), never a 5xx', async () => {
    const { token, customer } = await anOrgWithCustomer('chain-odd');
    const step = loginThenRead()[0]!;
    const odd: Record<string, unknown>[] = [
      { steps: [] },
      { steps: null },
      { steps: [{ ...step, url: 'HTTPS://{{secrets.password}}@x/' }] },
      { steps: [{ ...step, url: 'https://x.example/{{ }}' }] },
      { steps: [{ ...step, body: '{{secrets.__proto__}}' }], secrets: JSON.parse('{"__proto__":"x","password":"y"}') },
      { steps: [{ ...step, extract: [{ variable: 'constructor', source: 'regex', expression: '(?<n>a)\\k<n>' }] }] },
      { steps: [{ ...step, assertions: [{ type: 'jsonPath', path: '$', op: 'matches', value: 7 }] }] },
      { steps: [{ ...step, headers: JSON.parse('{"__proto__":"x"}') }] },
      { steps: [step, { ...step }] },
      { steps: [{ ...step, url: `https://x.example/${'{{token}}'.repeat(200)}` }] },
    ];
    for (const extra of odd) {
      const response = await create(token, { customerId: customer.id, secrets: { password: secret }, ...extra });
      expect(response.status, `${JSON.stringify(extra)}: ${JSON.stringify(response.body)}`).to.be.below(500);
      if (response.status >= 400) expectError(response, response.status, response.body.data.code);
      else expect(response.body.steps[0].headers, 'a __proto__ header name is dropped by the schema').to.deep.equal({});
    }
  });

  it('stores the chain, answers its secret names and never the secrets', async () => {
    const { token, customer } = await anOrgWithCustomer('chain-store');
    const created = await create(token, { customerId: customer.id, steps: loginThenRead(), secrets: { password: secret } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ monitoringType: 'api_chain', url: `${PUBLIC}/`, name: 'www.monitor-fixture.com' });
    expect(created.body.secretNames).to.deep.equal(['password']);
    expect(created.body.steps[1]).to.deep.equal({
      name: 'read profile',
      method: 'GET',
      url: `${PUBLIC}/me`,
      headers: { authorization: 'Bearer {{token}}' },
      body: null,
      extract: [],
      assertions: [{ type: 'jsonPath', path: '$.user.name', op: 'equals', value: 'Ann' }],
    });
    const read = await api('GET', `/api/websites/${created.body.publicId}`, { token });
    expect(JSON.stringify(read.body)).to.not.contain(secret);

    const patched = await api('PATCH', `/api/websites/${created.body.publicId}`, { token, body: { secrets: null } });
    expectError(patched, 400, 'validationFailed');
    expect(patched.body.data.issues[0].path).to.deep.equal(['steps', '0', 'body']);

    const other = await anOrgWithCustomer('chain-other');
    const theirs = { token: other.token };
    const ref = created.body.publicId as string;
    expectError(await api('GET', `/api/websites/${ref}`, theirs), 404, 'websiteNotFound');
    expectError(await api('PATCH', `/api/websites/${ref}`, { ...theirs, body: { secrets: { password: 'mine' } } }), 404, 'websiteNotFound');
    expectError(await api('GET', `/api/websites/${ref}/check-history`, theirs), 404, 'websiteNotFound');
    expectError(await api('POST', `/api/websites/${ref}/trigger-check`, theirs), 404, 'websiteNotFound');
  });

  it('takes no secrets in a change request (requests are stored in clear), and takes steps', async () => {
    const { token, customer } = await anOrgWithCustomer('chain-requests');
    const created = await create(token, { customerId: customer.id, steps: loginThenRead(), secrets: { password: secret } });
    const customerToken = await aCustomerToken(token, customer.id);
    const path = `/api/websites/${created.body.publicId}/change-requests`;
    const withSecret = await api('POST', path, { token: customerToken, body: { changes: { secrets: { password: 'new' } } } });
    expectError(withSecret, 400, 'validationFailed');
    expect(JSON.stringify(withSecret.body.data.issues)).to.contain('secrets');
    const withSteps = await api('POST', path, { token: customerToken, body: { changes: { steps: loginThenRead().slice(0, 1) } } });
    expect(withSteps.status, JSON.stringify(withSteps.body)).to.equal(201);
  });

  it('runs a login-then-read chain from the schedule: up, both steps in the evidence', async () => {
    const { token, customer } = await anOrgWithCustomer('chain-up');
    const chain = await aChain(token, customer.id, loginThenRead());
    const result = await runNow(token, chain.publicId);
    expect(result, JSON.stringify(result)).to.include({ status: 'up', location: LOCATION });
    expect(peer.requests.at(-1)!.headers.authorization).to.match(/^Bearer tok-/);
  });

  it('records a failing step as down, naming it, with its evidence', async () => {
    const { token, customer } = await anOrgWithCustomer('chain-down');
    const chain = await aChain(token, customer.id, loginThenRead([{ type: 'header', name: 'x-request-id', op: 'equals', value: 'req-7' }]));
    const result = await runNow(token, chain.publicId);
    expect(result).to.include({
      status: 'down',
      reasonCode: 'assertionFailed',
      message: 'Step 2 (read profile): header x-request-id equals "req-7" failed: was "req-42"',
    });
    const failed = result.evidence.apiChain.steps[1];
    expect(result.evidence.apiChain.failedStep).to.equal(1);
    expect(failed).to.include({ name: 'read profile', status: 200, passed: false });
    expect(failed.headers).to.include({ 'x-request-id': 'req-42' });
    expect(failed.bodyExcerpt).to.equal('{"user":{"name":"Ann","roles":["admin","ops"]}}');
  });

  it('is confirmed like every check: one failure of two opens nothing, the confirmation a retry interval later opens the incident', async () => {
    const { token, customer } = await anOrgWithCustomer('chain-confirm');
    const steps = loginThenRead([{ type: 'jsonPath', path: '$.user.name', op: 'equals', value: 'Bob' }]);
    const chain = await aChain(token, customer.id, steps, [], { alertConsecutiveChecks: 2, alertRetryInterval: 10 });
    const dispatcher = await anEngineFor(monitorIds, [LOCATION], 'chain-confirming');
    const incidents = async () =>
      (await api('GET', '/api/incidents', { token, query: { monitorId: String(chain.id) } })).body.items as Array<{
        status: string;
        cause: { reasonCode: string; message: string } | null;
      }>;
    expect((await api('POST', `/api/websites/${chain.publicId}/trigger-check`, { token })).status).to.equal(202);
    await runUntilRecorded(dispatcher, 1);
    expect(await incidents(), 'one failure of two: nothing yet').to.have.length(0);
    testClock.advance(10_500);
    await runUntilRecorded(dispatcher, 1);
    const open = await incidents();
    expect(open.map((i) => i.status)).to.deep.equal(['open']);
    expect(open[0]!.cause).to.include({ reasonCode: 'assertionFailed' });
    expect(open[0]!.cause!.message).to.match(/^Step 2 \(read profile\): /);
  });

  it('refuses step 3 at a private address outside the allowlist (targetRejected), which hears nothing', async () => {
    const { token, customer } = await anOrgWithCustomer('chain-policy');
    const steps = [...loginThenRead(), { name: 'internal', url: `${PUBLIC}/me`, headers: { authorization: 'Bearer {{token}}' } }];
    const chain = await aChain(
      token,
      customer.id,
      steps,
      [peer.url(''), peer.url(''), outside.url('')].map((u) => u.replace(/\/$/, '')),
    );
    const result = await runNow(token, chain.publicId);
    expect(result).to.include({ status: 'down', reasonCode: 'targetRejected' });
    expect(result.message).to.match(/^Step 3 \(internal\): 127\.0\.0\.2 /);
    expect(outside.requests).to.deep.equal([]);
  });

  it('keeps the secret out of every stored result, message and table, even when the API echoes it back', async () => {
    const { token, customer } = await anOrgWithCustomer('chain-secret');
    const echo = {
      name: 'echo',
      method: 'POST',
      url: `${PUBLIC}/echo?key={{secrets.password}}`,
      body: '{"password":"{{secrets.password}}"}',
      assertions: [{ type: 'jsonPath', path: '$.received', op: 'contains', value: 'nothing' }],
    };
    const chain = await aChain(token, customer.id, [...loginThenRead(), echo]);
    const result = await runNow(token, chain.publicId);
    expect(peer.requests.at(-1)!.body, 'the secret reached the API').to.contain(secret);
    expect(result).to.include({ status: 'down', reasonCode: 'unexpectedStatus' });
    expect(result.evidence.apiChain.steps[2].bodyExcerpt).to.contain('[redacted]');
    const history = await api('GET', `/api/websites/${chain.publicId}/check-history`, { token });
    expect(JSON.stringify(history.body)).to.not.contain(secret);

    expect(await tablesHolding(chain.publicId), 'the scan finds what is stored').to.include('monitors');
    expect(await tablesHolding(secret), 'tables holding the secret in the clear').to.deep.equal([]);
  });
});
