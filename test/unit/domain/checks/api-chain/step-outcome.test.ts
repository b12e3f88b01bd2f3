import { expect } from 'chai';
import type { Assertion } from '../../../../../src/domain/checks/api-chain/chain-definition';
import { evaluateAssertions, extract, type StepResponse } from '../../../../../src/domain/checks/api-chain/step-outcome';

const response: StepResponse = {
  status: 200,
  headers: { 'content-type': 'application/json', 'x-request-id': 'req-42' },
  body: JSON.stringify({ user: { name: 'Ann', roles: ['admin', 'ops'], age: 41 }, token: 'tok-1' }),
  truncated: false,
  totalMs: 120,
};
const failures = (assertions: Assertion[], r: Partial<StepResponse> = {}) => evaluateAssertions(assertions, { ...response, ...r });

describe('API chains: step assertions', () => {
  it('passes when every assertion holds', () => {
    expect(
      failures([
        { type: 'status', equals: 200 },
        { type: 'jsonPath', path: '$.user.name', op: 'equals', value: 'Ann' },
        { type: 'jsonPath', path: '$.user.age', op: 'equals', value: 41 },
        { type: 'jsonPath', path: '$.user.roles', op: 'contains', value: 'ops' },
        { type: 'jsonPath', path: '$.user.name', op: 'matches', value: '^A' },
        { type: 'header', name: 'X-Request-Id', op: 'matches', value: '^req-\\d+$' },
        { type: 'header', name: 'content-type', op: 'contains', value: 'json' },
        { type: 'responseTime', maxMs: 500 },
      ]),
    ).to.deep.equal([]);
  });

  it('wants a 2xx when no status assertion is given, and the exact status when one is', () => {
    expect(failures([], { status: 302 })).to.deep.equal([{ code: 'unexpectedStatus', message: 'status 302, expected 2xx' }]);
    expect(failures([{ type: 'status', equals: 302 }], { status: 302 })).to.deep.equal([]);
    expect(failures([{ type: 'status', equals: 201 }])).to.deep.equal([{ code: 'unexpectedStatus', message: 'status 200, expected 201' }]);
  });

  it('names the path, the expectation and what was there for a failed JSON path assertion', () => {
    expect(failures([{ type: 'jsonPath', path: '$.user.name', op: 'equals', value: 'Bob' }])).to.deep.equal([
      { code: 'assertionFailed', message: '$.user.name equals "Bob" failed: was "Ann"' },
    ]);
    expect(failures([{ type: 'jsonPath', path: '$.user.roles', op: 'contains', value: 'root' }])[0]!.message).to.equal(
      '$.user.roles contains "root" failed: was ["admin","ops"]',
    );
    expect(failures([{ type: 'jsonPath', path: '$.missing', op: 'matches', value: '.' }])[0]!.message).to.equal(
      '$.missing matches "." failed: was nothing',
    );
    expect(failures([{ type: 'jsonPath', path: '$.a', op: 'equals', value: 1 }], { body: '<html>', truncated: true })[0]!.message).to.equal(
      '$.a equals 1 failed: the body is not JSON (cut at the response limit)',
    );
  });

  it('fails header assertions on a missing header or another value, and response time above the limit', () => {
    expect(failures([{ type: 'header', name: 'ETag', op: 'present' }])).to.deep.equal([
      { code: 'assertionFailed', message: 'header ETag is present failed: no such header' },
    ]);
    expect(failures([{ type: 'header', name: 'content-type', op: 'equals', value: 'text/html' }])[0]!.message).to.equal(
      'header content-type equals "text/html" failed: was "application/json"',
    );
    expect(failures([{ type: 'responseTime', maxMs: 100 }])).to.deep.equal([
      { code: 'responseTooSlow', message: 'answered in 120 ms, more than 100 ms' },
    ]);
  });
});

describe('API chains: extraction', () => {
  it('reads a JSON path (objects as JSON), a header and a regular expression group', () => {
    expect(extract({ variable: 't', source: 'jsonPath', expression: '$.token' }, response)).to.deep.equal({ value: 'tok-1' });
    expect(extract({ variable: 't', source: 'jsonPath', expression: '$.user.roles' }, response)).to.deep.equal({
      value: '["admin","ops"]',
    });
    expect(extract({ variable: 'r', source: 'header', expression: 'X-Request-ID' }, response)).to.deep.equal({ value: 'req-42' });
    expect(extract({ variable: 'n', source: 'regex', expression: '"name":"(\\w+)"' }, response)).to.deep.equal({ value: 'Ann' });
    expect(extract({ variable: 'n', source: 'regex', expression: 'tok-\\d' }, response)).to.deep.equal({ value: 'tok-1' });
  });

  it('matches in linear time: a pattern that backtracks catastrophically elsewhere answers at once on a crafted body', () => {
    const crafted = { ...response, body: `${'a'.repeat(100_000)}!` };
    expect(extract({ variable: 'x', source: 'regex', expression: '^(a+)+$' }, crafted)).to.deep.equal({
      failure: { code: 'extractionFailed', message: 'could not extract x: no match for /^(a+)+$/' },
    });
  });

  it('fails naming the variable and why', () => {
    expect(extract({ variable: 'id', source: 'jsonPath', expression: '$.id' }, response)).to.deep.equal({
      failure: { code: 'extractionFailed', message: 'could not extract id: nothing at $.id' },
    });
    expect(extract({ variable: 'loc', source: 'header', expression: 'location' }, response)).to.deep.equal({
      failure: { code: 'extractionFailed', message: 'could not extract loc: no header location' },
    });
    expect(extract({ variable: 'x', source: 'jsonPath', expression: '$.a' }, { ...response, body: 'plain' })).to.deep.equal({
      failure: { code: 'extractionFailed', message: 'could not extract x: the body is not JSON' },
    });
  });
});
