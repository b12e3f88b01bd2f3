import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describeApi } from '../../../src/main/api-description';

/**
 * Every error code the API documents is answered somewhere, and a test proves it: for each code
 * that /openapi.json (describeApi, the document the host serves) names in an operation's error
 * responses, some HTTP test under test/integration or test/faults provokes it and asserts it.
 *
 * What counts as proof, in a test file (persistence tests, which call repositories rather than the
 * API, are left out):
 * - `expectError(response, status, 'code')` (test/support/http-client.ts), the code a literal of its
 *   last argument (`cond ? 'a' : 'b'` counts for both);
 * - `expect(….code…).to.equal('code')` (also `eql`, `deep.equal`);
 * - `code: 'code'` in an expected object (`data: { code: 'code' }`, `.include({ code: 'code' })`).
 * A code the document says is answered without data.code (the spec's codeless answers) cannot be
 * named in the answer: its proof is a test (`it(...)`) that names the code and asserts an answer of
 * its documented status without a code (`expectError(response, status)`).
 *
 * A documented code no test provokes fails this test by name, with the operations documenting it:
 * provoke it over HTTP, or take it out of the operations that cannot answer it.
 */

interface Documented {
  code: string;
  status: number;
  codeless: boolean;
  operations: string[];
}

const ROOT = path.resolve(__dirname, '../../..');

/** The (code, status) pairs an error response's description names: "Error. Codes: `a`, `b`; answered without data.code: `c`". */
export function codesOfDescription(description: string): Array<{ code: string; codeless: boolean }> {
  const [coded = '', codeless = ''] = description.split(/answered without data\.code:/);
  const names = (text: string) => [...text.matchAll(/`([A-Za-z][A-Za-z0-9_]*)`/g)].map((m) => m[1]!);
  return [...names(coded).map((code) => ({ code, codeless: false })), ...names(codeless).map((code) => ({ code, codeless: true }))];
}

function documentedCodes(): Documented[] {
  const document = describeApi() as { paths: Record<string, Record<string, { responses?: Record<string, { description?: string }> }>> };
  const byCode = new Map<string, Documented>();
  for (const [route, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!/^[45]\d\d$/.test(status)) continue;
        for (const { code, codeless } of codesOfDescription(response.description ?? '')) {
          const entry = byCode.get(code) ?? { code, status: Number(status), codeless, operations: [] };
          entry.operations.push(`${method.toUpperCase()} ${route}`);
          byCode.set(code, entry);
        }
      }
    }
  }
  return [...byCode.values()];
}

/** The text of each call of `name(...)` in `source`: its arguments, parentheses balanced. */
export function callsOf(source: string, name: string): string[] {
  const found: string[] = [];
  const start = new RegExp(`(?<![\\w.])${name}\\(`, 'g');
  for (let match = start.exec(source); match; match = start.exec(source)) {
    let depth = 1;
    let i = match.index + match[0].length;
    let quote: string | null = null;
    for (; i < source.length && depth > 0; i++) {
      const c = source[i]!;
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = null;
      } else if (c === "'" || c === '"' || c === '`') quote = c;
      else if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) depth--;
    }
    found.push(source.slice(match.index + match[0].length, i - 1));
  }
  return found;
}

/** The top-level arguments of a call's text. */
export function argumentsOf(call: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let from = 0;
  for (let i = 0; i < call.length; i++) {
    const c = call[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      parts.push(call.slice(from, i).trim());
      from = i + 1;
    }
  }
  const last = call.slice(from).trim();
  if (last !== '') parts.push(last);
  return parts;
}

const literals = (text: string) => [...text.matchAll(/'([A-Za-z][A-Za-z0-9_]*)'/g)].map((m) => m[1]!);

/** What one test file proves: the codes it asserts in answers, and per test the codeless statuses it asserts. */
export function evidenceOf(source: string): { codes: Set<string>; codeless: Array<{ text: string; statuses: Set<number> }> } {
  const codes = new Set<string>();
  for (const call of callsOf(source, 'expectError')) {
    const args = argumentsOf(call);
    if (args.length >= 3) for (const code of literals(args.at(-1)!)) codes.add(code);
  }
  for (const m of source.matchAll(/\.code\b[^;]{0,160}?\)\s*\.to\.(?:deep\.)?(?:equal|eql)\(\s*'([A-Za-z][A-Za-z0-9_]*)'/g))
    codes.add(m[1]!);
  for (const m of source.matchAll(/\bcode:\s*'([A-Za-z][A-Za-z0-9_]*)'/g)) codes.add(m[1]!);
  const codeless = callsOf(source, 'it').map((text) => ({
    text,
    statuses: new Set(
      callsOf(text, 'expectError')
        .map(argumentsOf)
        .filter((args) => args.length === 2 && /^\d{3}$/.test(args[1]!))
        .map((args) => Number(args[1])),
    ),
  }));
  return { codes, codeless };
}

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return testFiles(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const HTTP_TEST_DIRS = ['test/integration', 'test/faults'];
/** Repository tests: they call adapters, not the API. */
const NOT_HTTP = path.join(ROOT, 'test/integration/persistence') + path.sep;

describe('documented error codes: each is provoked and asserted by an HTTP test', () => {
  const documented = documentedCodes();
  const files = HTTP_TEST_DIRS.flatMap((dir) => testFiles(path.join(ROOT, dir))).filter((file) => !file.startsWith(NOT_HTTP));
  const evidence = files.map((file) => evidenceOf(readFileSync(file, 'utf8')));

  it('reads the documented codes from the served document and the HTTP test files (the scan is not blind)', () => {
    expect(documented.length, 'distinct documented codes').to.be.greaterThan(150);
    const byName = new Map(documented.map((d) => [d.code, d]));
    expect(byName.get('tooManyDependencies')).to.include({ status: 400, codeless: false });
    expect(byName.get('tooManyDependencies')!.operations).to.include('PATCH /api/websites/{id}');
    expect(byName.get('routeNotFound')).to.include({ status: 404, codeless: true });
    expect(files.length).to.be.greaterThan(100);
    expect(files.some((file) => file.endsWith(path.join('http', 'monitoring', 'dependencies.test.ts')))).to.equal(true);
  });

  it('recognises the forms of proof, and nothing else', () => {
    const source = `
      it('answers 404 routeNotFound without a code', async () => {
        expectError(await api('GET', '/x', { query: { a: 'b,c' } }), 404);
      });
      it('refuses', async () => {
        expectError(
          await api('PATCH', '/y', { body: { dependsOn: ['notACode'] } }),
          400,
          'tooManyDependencies',
        );
        expectError(answer, 409, path === '/hello' ? 'probeInstanceMoved' : 'probeNotRegistered');
        expect(response.body.data.code, 'why').to.equal('dependencyCycle');
        expect(body).to.deep.equal({ data: { code: 'signupClosed' } });
        expect(other.status).to.equal(400);
      });`;
    const { codes, codeless } = evidenceOf(source);
    expect([...codes].sort()).to.deep.equal([
      'dependencyCycle',
      'probeInstanceMoved',
      'probeNotRegistered',
      'signupClosed',
      'tooManyDependencies',
    ]);
    expect(codeless.map((t) => [...t.statuses])).to.deep.equal([[404], []]);
    expect(codeless[0]!.text).to.include('routeNotFound');
    expect(codesOfDescription('Error. Codes: `a`, `b_c`; answered without data.code: `routeNotFound`')).to.deep.equal([
      { code: 'a', codeless: false },
      { code: 'b_c', codeless: false },
      { code: 'routeNotFound', codeless: true },
    ]);
  });

  it('finds a test provoking and asserting every documented code', () => {
    const asserted = new Set(evidence.flatMap((e) => [...e.codes]));
    const proven = (d: Documented) =>
      d.codeless
        ? evidence.some((e) => e.codeless.some((t) => t.statuses.has(d.status) && new RegExp(`\\b${d.code}\\b`).test(t.text)))
        : asserted.has(d.code);
    const unproven = documented
      .filter((d) => !proven(d))
      .map((d) => `${d.code} (${d.status}${d.codeless ? ', without data.code' : ''}; documented on ${d.operations.join(', ')})`)
      .sort();
    expect(unproven, 'documented error codes that no HTTP test provokes and asserts').to.deep.equal([]);
  });
});
