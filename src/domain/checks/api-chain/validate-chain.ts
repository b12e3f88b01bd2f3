import { targetRefusal } from '../../shared/network/refusal-text';
import { parseTargetUrl } from '../../shared/network/target-url';
import { CHAIN_LIMITS, VARIABLE_NAME, type Assertion, type ChainStep, type Extraction } from './chain-definition';
import { placeholdersIn, substitute } from './chain-template';
import { parseJsonPath } from './json-path';
import { chainPattern } from './chain-pattern';

export type IssuePath = readonly (string | number)[];

/** A rule a chain breaks, on the path of the field (`['steps', 2, 'url']`). */
export interface ChainIssue {
  readonly path: IssuePath;
  readonly message: string;
  /** invalidUrl for a step's URL (a target the service refuses), validationFailed for the rest. */
  readonly code: 'invalidUrl' | 'validationFailed';
  /** invalidUrl: the target refusal's reason (malformed, reservedName). */
  readonly reason?: string;
}

/** A step's host the target policy must vet before the chain is saved. */
export interface ChainTarget {
  readonly index: number;
  readonly host: string;
}

export const MAX_PATTERN_LENGTH = 200;

/** Why `pattern` cannot be a chain's regular expression (too long, not one, or not runnable in linear time), or null. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `at most ${MAX_PATTERN_LENGTH} characters`;
  try {
    chainPattern(pattern);
    return null;
  } catch (error) {
    const message = (error as Error).message;
    if (/linear time/.test(message)) return 'backreferences and lookarounds are not supported (patterns run in linear time)';
    return `not a regular expression: ${message}`;
  }
}

const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * The rules of a chain beyond its shape: 1-10 steps with distinct names; each URL an http(s) URL
 * whose scheme, host and port are written out (placeholders only in path and query) and that the
 * service may check; every `{{variable}}` extracted by an earlier step and every `{{secrets.NAME}}`
 * among `secretNames`; JSON paths in the supported subset; regular expressions that compile and do
 * not nest quantifiers. Answers every issue, and the hosts to vet.
 */
export function validateChain(
  steps: readonly ChainStep[],
  secretNames: readonly string[],
  options: { readonly reservedNames?: boolean } = {},
): { issues: ChainIssue[]; targets: ChainTarget[] } {
  const issues: ChainIssue[] = [];
  const targets: ChainTarget[] = [];
  const issue = (path: IssuePath, message: string, code: ChainIssue['code'] = 'validationFailed', reason?: string) =>
    issues.push({ path: ['steps', ...path], message, code, ...(reason ? { reason } : {}) });
  if (steps.length === 0 || steps.length > CHAIN_LIMITS.maxSteps) issue([], `1 to ${CHAIN_LIMITS.maxSteps} steps`);
  const names = new Set<string>();
  const known = new Set<string>();
  steps.forEach((step, i) => {
    if (names.has(step.name)) issue([i, 'name'], `another step is named "${step.name}"`);
    names.add(step.name);
    const refs = (text: string, path: IssuePath) => {
      for (const p of placeholdersIn(text)) {
        if (p.kind === 'secret' && !secretNames.includes(p.name))
          issue(path, `no secret named ${p.name} (secrets: ${secretNames.join(', ') || 'none'})`);
        if (p.kind === 'variable' && !known.has(p.name)) issue(path, `{{${p.name}}} is not extracted by an earlier step`);
      }
    };
    const origin = ORIGIN.exec(step.url)?.[0] ?? '';
    if (origin.includes('{{')) issue([i, 'url'], 'placeholders may appear in the path and query only, not in the scheme, host or port');
    else {
      const parsed = parseTargetUrl(substitute(step.url, { variables: new Map(), secrets: {} }).replace(/\{\{[^}]*\}\}/g, 'x'), options);
      if (parsed.ok) targets.push({ index: i, host: parsed.host });
      else issue([i, 'url'], targetRefusal(`steps[${i}].url`, parsed.reason), 'invalidUrl', parsed.reason);
    }
    refs(step.url, [i, 'url']);
    for (const [name, value] of Object.entries(step.headers)) refs(value, [i, 'headers', name]);
    if (step.body !== null) refs(step.body, [i, 'body']);
    step.assertions.forEach((a, j) => assertionIssue(a)?.forEach((m) => issue([i, 'assertions', j, m.field], m.message)));
    step.extract.forEach((e, j) => {
      const problem = extractionIssue(e);
      if (problem) issue([i, 'extract', j, problem.field], problem.message);
      if (known.has(e.variable) || e.variable === 'secrets') issue([i, 'extract', j, 'variable'], `${e.variable} is already defined`);
      known.add(e.variable);
    });
  });
  return { issues, targets };
}

function extractionIssue(e: Extraction): { field: string; message: string } | null {
  if (!VARIABLE_NAME.test(e.variable)) return { field: 'variable', message: 'letters, digits and _, not starting with a digit' };
  if (e.source === 'jsonPath') {
    const path = parseJsonPath(e.expression);
    return path.ok ? null : { field: 'expression', message: path.message };
  }
  if (e.source === 'regex') {
    const problem = patternProblem(e.expression);
    return problem ? { field: 'expression', message: problem } : null;
  }
  return null;
}

function assertionIssue(a: Assertion): { field: string; message: string }[] | null {
  if (a.type === 'jsonPath') {
    const path = parseJsonPath(a.path);
    if (!path.ok) return [{ field: 'path', message: path.message }];
    if (a.op !== 'equals' && typeof a.value !== 'string') return [{ field: 'value', message: `${a.op} takes a string` }];
  }
  if ((a.type === 'jsonPath' || a.type === 'header') && a.op === 'matches') {
    const problem = patternProblem(String(a.value ?? ''));
    if (problem) return [{ field: 'value', message: problem }];
  }
  if (a.type === 'header' && a.op !== 'present' && a.value === undefined) return [{ field: 'value', message: `${a.op} needs a value` }];
  return null;
}
