import { expect } from 'chai';
import { ResolvingTargetPolicy } from '../../../../src/infrastructure/network/resolving-target-policy';
import { ApiChainChecker } from '../../../../src/infrastructure/protocols/http/api-chain-checker';
import { SharedTlsContext } from '../../../../src/infrastructure/protocols/shared/tls-context';
import type { ApiChainCheckRequest } from '../../../../src/domain/checks/check-request';
import type { Assertion, ChainStep } from '../../../../src/domain/checks/api-chain/chain-definition';
import { ApiPeer } from '../../../support/peers/api-peer';
import { HttpPeer } from '../../../support/peers/http-peer';
import { testCertificates } from '../../../support/peers/certificates';
import { checkContext, TEST_USER_AGENT } from '../../../support/check-requests';
import { evidenceFits } from '../../../../src/application/probes/wire';

const SECRET = 'hunter2-Sw0rdfish!';

/** The real target policy, allowing 127.0.0.1 only: the chain's peer; 127.0.0.2 is a private address like any other. */
const policy = new ResolvingTargetPolicy(
  {
    resolveAddresses: async () => {
      throw new Error('steps name addresses only');
    },
  },
  ['127.0.0.1/32'],
);

describe('API chain checker against a loopback API', () => {
  const checker = new ApiChainChecker(policy, new SharedTlsContext([]), TEST_USER_AGENT);
  const api = new ApiPeer(SECRET);
  const outside = new ApiPeer(SECRET, '127.0.0.2');

  before(async () => {
    await Promise.all([api.start(), outside.start()]);
  });
  after(async () => {
    await Promise.all([api.stop(), outside.stop()]);
  });

  const step = (name: string, path: string, more: Partial<ChainStep> = {}): ChainStep => ({
    name,
    method: 'GET',
    url: api.url(path),
    headers: {},
    body: null,
    extract: [],
    assertions: [],
    ...more,
  });
  const login = (): ChainStep =>
    step('log in', '/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"user":"ann","password":"{{secrets.password}}"}',
      extract: [{ variable: 'token', source: 'jsonPath', expression: '$.token' }],
      assertions: [{ type: 'status', equals: 200 }],
    });
  const read = (assertions: Assertion[]) => step('read profile', '/me', { headers: { authorization: 'Bearer {{token}}' }, assertions });
  const chain = (steps: ChainStep[], timeoutSeconds = 5): ApiChainCheckRequest => ({
    kind: 'apiChain',
    steps,
    secrets: { password: SECRET },
    timeoutSeconds,
  });

  it('passes a login-then-read chain: the token from step 1 travels in step 2', async () => {
    const result = await checker.check(
      chain([
        login(),
        read([
          { type: 'status', equals: 200 },
          { type: 'jsonPath', path: '$.user.name', op: 'equals', value: 'Ann' },
          { type: 'jsonPath', path: '$.user.roles', op: 'contains', value: 'ops' },
          { type: 'header', name: 'x-request-id', op: 'matches', value: '^req-\\d+$' },
          { type: 'responseTime', maxMs: 2_000 },
        ]),
      ]),
      checkContext(),
    );
    expect(result.status, JSON.stringify(result.findings)).to.equal('up');
    const chainEvidence = result.evidence.apiChain!;
    expect(chainEvidence.failedStep).to.equal(null);
    expect(chainEvidence.steps.map((s) => [s.index, s.name, s.status, s.passed, s.address])).to.deep.equal([
      [0, 'log in', 200, true, '127.0.0.1'],
      [1, 'read profile', 200, true, '127.0.0.1'],
    ]);
    expect(chainEvidence.steps[1]).to.not.have.property('bodyExcerpt');
    expect(chainEvidence.steps[1]!.timings.totalMs).to.be.at.least(chainEvidence.steps[1]!.timings.firstByteMs!);
    const [loggedIn, readBack] = api.requests.slice(-2);
    expect(loggedIn!.body, 'the secret was sent to the API').to.contain(SECRET);
    expect(readBack!.headers.authorization).to.match(/^Bearer tok-[0-9a-f-]{36}$/);
    expect(JSON.stringify(result)).to.not.contain(SECRET);
  });

  const failing: { kind: string; assertion: Assertion; code: string; message: string }[] = [
    { kind: 'status', assertion: { type: 'status', equals: 204 }, code: 'unexpectedStatus', message: 'status 200, expected 204' },
    {
      kind: 'JSON path equals',
      assertion: { type: 'jsonPath', path: '$.user.name', op: 'equals', value: 'Bob' },
      code: 'assertionFailed',
      message: '$.user.name equals "Bob" failed: was "Ann"',
    },
    {
      kind: 'JSON path contains',
      assertion: { type: 'jsonPath', path: '$.user.roles', op: 'contains', value: 'root' },
      code: 'assertionFailed',
      message: '$.user.roles contains "root" failed: was ["admin","ops"]',
    },
    {
      kind: 'JSON path matches',
      assertion: { type: 'jsonPath', path: '$.user.name', op: 'matches', value: '^B' },
      code: 'assertionFailed',
      message: '$.user.name matches "^B" failed: was "Ann"',
    },
    {
      kind: 'header',
      assertion: { type: 'header', name: 'etag', op: 'present' },
      code: 'assertionFailed',
      message: 'header etag is present failed: no such header',
    },
  ];
  for (const { kind, assertion, code, message } of failing) {
    it(`fails on a ${kind} assertion, naming step 2 and keeping its evidence`, async () => {
      const result = await checker.check(chain([login(), read([assertion])]), checkContext());
      expect(result.status).to.equal('down');
      expect(result.reason).to.deep.equal({ status: 'down', code, message: `Step 2 (read profile): ${message}` });
      const evidence = result.evidence.apiChain!;
      expect(evidence.failedStep).to.equal(1);
      const failed = evidence.steps[1]!;
      expect(failed).to.include({ index: 1, name: 'read profile', method: 'GET', status: 200, passed: false, truncated: false });
      expect(failed.headers).to.include({ 'content-type': 'application/json', 'x-request-id': 'req-42' });
      expect(failed.bodyExcerpt).to.equal('{"user":{"name":"Ann","roles":["admin","ops"]}}');
      expect(failed.timings.totalMs).to.be.a('number');
    });
  }

  it('fails on a response-time assertion with the time it took', async () => {
    const result = await checker.check(
      chain([step('slow', '/slow', { assertions: [{ type: 'responseTime', maxMs: 100 }] })]),
      checkContext(),
    );
    expect(result.reason?.code).to.equal('responseTooSlow');
    expect(result.reason?.message).to.match(/^Step 1 \(slow\): answered in \d+ ms, more than 100 ms$/);
    expect(result.evidence.apiChain!.steps[0]!.timings.totalMs).to.be.at.least(290);
  });

  it('refuses step 3 at a private address the allowlist does not admit: targetRejected, and the address hears nothing', async () => {
    const third = { ...step('internal', '/me'), url: outside.url('/me') };
    const result = await checker.check(chain([login(), read([]), third]), checkContext());
    expect(result.status).to.equal('down');
    expect(result.reason?.code).to.equal('targetRejected');
    expect(result.reason?.message).to.match(/^Step 3 \(internal\): /);
    expect(result.evidence.apiChain!.failedStep).to.equal(2);
    expect(result.evidence.apiChain!.steps[2]).to.include({ status: 0, address: null, passed: false });
    expect(outside.requests).to.deep.equal([]);
  });

  it('stops at a failed extraction and never runs later steps', async () => {
    const before = api.requests.length;
    const bad = { ...login(), extract: [{ variable: 'token', source: 'jsonPath' as const, expression: '$.session' }] };
    const result = await checker.check(chain([bad, read([])]), checkContext());
    expect(result.reason).to.deep.equal({
      status: 'down',
      code: 'extractionFailed',
      message: 'Step 1 (log in): could not extract token: nothing at $.session',
    });
    expect(api.requests.length - before, 'step 2 never ran').to.equal(1);
  });

  it('never shows a secret: an echoed body, a URL and a message all redacted', async () => {
    const echo = step('echo', '/echo?key={{secrets.password}}', {
      method: 'POST',
      body: '{"password":"{{secrets.password}}"}',
      assertions: [
        { type: 'status', equals: 500 },
        { type: 'jsonPath', path: '$.received', op: 'equals', value: 'x' },
      ],
    });
    const result = await checker.check(chain([echo]), checkContext());
    expect(api.requests.at(-1)!.body, 'the peer got the secret').to.contain(SECRET);
    const failed = result.evidence.apiChain!.steps[0]!;
    expect(failed.url).to.equal(api.url('/echo?key=[redacted]'));
    expect(failed.bodyExcerpt).to.equal('{"received":"{\\"password\\":\\"[redacted]\\"}"}');
    expect(result.reason?.message).to.equal('Step 1 (echo): $.received equals "x" failed: was "{\\"password\\":\\"[redacted]\\"}"');
    expect(JSON.stringify(result)).to.not.contain(SECRET);

    // A secret across the excerpt's end: redacted before the cut, so no prefix of it is kept either.
    const straddling = { ...echo, url: api.url('/echo'), body: `${'a'.repeat(1005)}{{secrets.password}}` };
    const cut = await checker.check(chain([straddling]), checkContext());
    const excerpt = cut.evidence.apiChain!.steps[0]!.bodyExcerpt!;
    expect(excerpt).to.have.length(1024);
    expect(excerpt.endsWith('[redac'), excerpt.slice(-20)).to.equal(true);
    expect(excerpt).to.not.contain(SECRET.slice(0, 6));
  });

  it('reads at most the per-step limit, says the body was cut, and ends the whole chain at its deadline', async () => {
    const big = await checker.check(
      chain([step('big', '/big', { assertions: [{ type: 'jsonPath', path: '$.data', op: 'matches', value: '^x' }] })]),
      checkContext(),
    );
    const failed = big.evidence.apiChain!.steps[0]!;
    expect(failed.truncated).to.equal(true);
    expect(failed.bodyBytes).to.be.above(256 * 1024);
    expect(failed.bodyExcerpt).to.have.length(1024);
    expect(big.reason?.message).to.equal('Step 1 (big): $.data matches "^x" failed: the body is not JSON (cut at the response limit)');

    const late = await checker.check(chain([login(), step('slow', '/slow')]), checkContext(150));
    expect(late.reason).to.deep.include({ code: 'timeout', message: 'Step 2 (slow): The check timed out' });
  });

  it('keeps the evidence of ten steps with long URLs and many large headers within what a probe may report', async () => {
    const long = `/headers?q=${'q'.repeat(1500)}`;
    const steps = Array.from({ length: 9 }, (_, i) => step(`headers ${i}`, long));
    const last = step('last', long, { assertions: [{ type: 'status', equals: 201 }] });
    const result = await checker.check(chain([...steps, last]), checkContext());
    expect(result.evidence.apiChain!.steps).to.have.length(10);
    expect(Object.keys(result.evidence.apiChain!.steps[9]!.headers)).to.have.length(12);
    expect(evidenceFits(result.evidence as Record<string, unknown>)).to.equal(true);
  });

  it('sends a step over https only to a peer whose certificate verifies: a self-signed one hears nothing (sslInvalid)', async () => {
    const certs = testCertificates();
    const trusting = new ApiChainChecker(policy, new SharedTlsContext([certs.ca.cert]), TEST_USER_AGENT);
    const secure = await new HttpPeer(certs.valid).start();
    const selfSigned = await new HttpPeer(certs.selfSigned).start();
    try {
      const post = (url: string): ChainStep => ({ ...step('post', '/'), url, method: 'POST', body: '{"key":"{{secrets.password}}"}' });
      const good = await trusting.check(chain([post(secure.url('/echo'))]), checkContext());
      expect(good.status, JSON.stringify(good.findings)).to.equal('up');
      const bad = await trusting.check(chain([post(selfSigned.url('/echo'))]), checkContext());
      expect(bad.reason?.code).to.equal('sslInvalid');
      expect(bad.reason?.message).to.match(/^Step 1 \(post\): the certificate of 127\.0\.0\.1 is not trusted \(.+\): nothing was sent$/);
      expect(selfSigned.requests, 'the request never went out').to.deep.equal([]);
    } finally {
      await Promise.all([secure.stop(), selfSigned.stop()]);
    }
  });
});
