import { expect } from 'chai';
import type { ChainStep } from '../../../../../src/domain/checks/api-chain/chain-definition';
import { patternProblem, validateChain } from '../../../../../src/domain/checks/api-chain/validate-chain';

const aStep = (overrides: Partial<ChainStep> = {}): ChainStep => ({
  name: 'login',
  method: 'POST',
  url: 'https://api.example.com/login',
  headers: {},
  body: null,
  extract: [],
  assertions: [],
  ...overrides,
});

const loginThenRead: ChainStep[] = [
  aStep({
    body: '{"password":"{{secrets.password}}"}',
    extract: [{ variable: 'token', source: 'jsonPath', expression: '$.token' }],
  }),
  aStep({ name: 'read', method: 'GET', url: 'https://data.example.com/me?t={{token}}', headers: { authorization: 'Bearer {{token}}' } }),
];

describe('API chains: definition rules', () => {
  it('accepts a login-then-read chain and answers each step host to vet', () => {
    expect(validateChain(loginThenRead, ['password'])).to.deep.equal({
      issues: [],
      targets: [
        { index: 0, host: 'api.example.com' },
        { index: 1, host: 'data.example.com' },
      ],
    });
  });

  it('refuses a variable no earlier step extracts and a secret that is not stored, on the field that names them', () => {
    const { issues } = validateChain(
      [aStep({ headers: { authorization: 'Bearer {{token}}' } }), aStep({ name: 'two', body: '{{secrets.key}}' })],
      [],
    );
    expect(issues).to.deep.equal([
      {
        path: ['steps', 0, 'headers', 'authorization'],
        message: '{{token}} is not extracted by an earlier step',
        code: 'validationFailed',
      },
      { path: ['steps', 1, 'body'], message: 'no secret named key (secrets: none)', code: 'validationFailed' },
    ]);
  });

  it('refuses placeholders in a URL origin and URLs the service may not check (invalidUrl naming the step)', () => {
    const { issues } = validateChain(
      [
        aStep({ url: 'https://{{secrets.host}}/x' }),
        aStep({ name: 'b', url: 'http://localhost:8080/' }),
        aStep({ name: 'c', url: 'ftp://x.example/' }),
      ],
      ['host'],
    );
    expect(issues.map((i) => [i.path.join('.'), i.code, i.reason ?? null])).to.deep.equal([
      ['steps.0.url', 'validationFailed', null],
      ['steps.1.url', 'invalidUrl', 'reservedName'],
      ['steps.2.url', 'invalidUrl', 'malformed'],
    ]);
    expect(issues[1]!.message).to.contain('steps[1].url');
  });

  it('refuses more than 10 steps, duplicate names, bad paths and patterns, and redefined variables', () => {
    const eleven = Array.from({ length: 11 }, (_, i) => aStep({ name: `s${i}` }));
    expect(validateChain(eleven, []).issues[0]).to.deep.include({ path: ['steps'], message: '1 to 10 steps' });
    const { issues } = validateChain(
      [
        aStep({
          extract: [
            { variable: 'a', source: 'jsonPath', expression: 'token' },
            { variable: 'a', source: 'regex', expression: '(a)\\1' },
          ],
          assertions: [
            { type: 'jsonPath', path: '$.x', op: 'matches', value: '[' },
            { type: 'header', name: 'etag', op: 'equals' },
          ],
        }),
        aStep(),
      ],
      [],
    );
    expect(issues.map((i) => i.path.join('.'))).to.deep.equal([
      'steps.0.assertions.0.value',
      'steps.0.assertions.1.value',
      'steps.0.extract.0.expression',
      'steps.0.extract.1.expression',
      'steps.0.extract.1.variable',
      'steps.1.name',
    ]);
  });

  it('judges regular expressions: too long, needing backtracking (backreferences, lookarounds), not compiling', () => {
    expect(patternProblem('^id=(\\d+)$')).to.equal(null);
    expect(patternProblem('(\\w+\\s?)*$'), 'nested quantifiers run in linear time').to.equal(null);
    expect(patternProblem('x'.repeat(201))).to.equal('at most 200 characters');
    expect(patternProblem('(a)\\1')).to.equal('backreferences and lookarounds are not supported (patterns run in linear time)');
    expect(patternProblem('(?<=a)b')).to.contain('lookarounds');
    expect(patternProblem('(')).to.match(/^not a regular expression/);
  });
});
