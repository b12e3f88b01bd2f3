import type { CheckReasonCode } from '../check-result';
import type { Assertion, Extraction, JsonScalar, MatchOp } from './chain-definition';
import { parseJsonPath, readJsonPath } from './json-path';
import { chainPattern } from './chain-pattern';

/** What a step's assertions and extractions read of its response. */
export interface StepResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  /** The body read (at most the per-step limit), as UTF-8. */
  readonly body: string;
  /** The body was longer than the limit and was cut. */
  readonly truncated: boolean;
  readonly totalMs: number;
}

export interface StepFailure {
  readonly code: CheckReasonCode;
  readonly message: string;
}

const show = (value: unknown): string => {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
};

/** Parses the body as JSON once per step (null: it is not JSON). */
export function jsonBody(response: StepResponse): { readonly ok: boolean; readonly value: unknown } {
  try {
    return { ok: true, value: JSON.parse(response.body) as unknown };
  } catch {
    return { ok: false, value: undefined };
  }
}

function matches(actual: unknown, op: MatchOp, expected: JsonScalar): boolean {
  switch (op) {
    case 'equals':
      return actual === expected || (typeof actual !== 'object' && actual !== undefined && String(actual) === String(expected));
    case 'contains':
      if (Array.isArray(actual)) return actual.some((item) => item === expected);
      return typeof actual === 'string' && actual.includes(String(expected));
    case 'matches':
      return (typeof actual === 'string' || typeof actual === 'number') && chainPattern(String(expected)).test(String(actual));
  }
}

/** Every assertion of the step that fails on `response`; a step without a status assertion wants a 2xx. */
export function evaluateAssertions(assertions: readonly Assertion[], response: StepResponse): StepFailure[] {
  const failures: StepFailure[] = [];
  const json = assertions.some((a) => a.type === 'jsonPath') ? jsonBody(response) : null;
  if (!assertions.some((a) => a.type === 'status') && (response.status < 200 || response.status > 299)) {
    failures.push({ code: 'unexpectedStatus', message: `status ${response.status}, expected 2xx` });
  }
  for (const a of assertions) {
    switch (a.type) {
      case 'status':
        if (response.status !== a.equals)
          failures.push({ code: 'unexpectedStatus', message: `status ${response.status}, expected ${a.equals}` });
        break;
      case 'responseTime':
        if (response.totalMs > a.maxMs)
          failures.push({ code: 'responseTooSlow', message: `answered in ${Math.round(response.totalMs)} ms, more than ${a.maxMs} ms` });
        break;
      case 'header': {
        const actual = response.headers[a.name.toLowerCase()];
        const ok = a.op === 'present' ? actual !== undefined : actual !== undefined && matches(actual, a.op, a.value ?? '');
        if (!ok)
          failures.push({
            code: 'assertionFailed',
            message: `header ${a.name} ${a.op === 'present' ? 'is present' : `${a.op} ${show(a.value)}`} failed: ${actual === undefined ? 'no such header' : `was ${show(actual)}`}`,
          });
        break;
      }
      case 'jsonPath': {
        const path = parseJsonPath(a.path);
        const actual = json?.ok && path.ok ? readJsonPath(json.value, path.segments) : undefined;
        if (!json?.ok || !matches(actual, a.op, a.value)) {
          const seen = !json?.ok
            ? `the body is not JSON${response.truncated ? ' (cut at the response limit)' : ''}`
            : `was ${show(actual)}`;
          failures.push({ code: 'assertionFailed', message: `${a.path} ${a.op} ${show(a.value)} failed: ${seen}` });
        }
        break;
      }
    }
  }
  return failures;
}

/** The value an extraction reads, as text (objects and arrays as JSON), or a failure naming why none. */
export function extract(extraction: Extraction, response: StepResponse): { value: string } | { failure: StepFailure } {
  const fail = (why: string) => ({
    failure: { code: 'extractionFailed' as const, message: `could not extract ${extraction.variable}: ${why}` },
  });
  switch (extraction.source) {
    case 'header': {
      const value = response.headers[extraction.expression.toLowerCase()];
      return value === undefined ? fail(`no header ${extraction.expression}`) : { value };
    }
    case 'jsonPath': {
      const json = jsonBody(response);
      if (!json.ok) return fail('the body is not JSON');
      const path = parseJsonPath(extraction.expression);
      const value = path.ok ? readJsonPath(json.value, path.segments) : undefined;
      if (value === undefined || value === null) return fail(`nothing at ${extraction.expression}`);
      return { value: typeof value === 'string' ? value : JSON.stringify(value) };
    }
    case 'regex': {
      const match = chainPattern(extraction.expression).exec(response.body);
      if (!match) return fail(`no match for /${extraction.expression}/`);
      const group = extraction.group ?? (match.length > 1 ? 1 : 0);
      const value = match[group];
      return value === undefined ? fail(`group ${group} did not match`) : { value };
    }
  }
}
