import { parseTargetUrl } from '../shared/network/target-url';
import { formatArgument, splitArguments, type ScenarioArgument } from './scenario-arguments';

/**
 * Scripted-browser scenarios: a small declarative language, one step per line, so tenants describe
 * what a browser does without running code of their own on our servers. The browser first opens
 * the website's url; then, in order:
 *
 *   goto <https://url or /path>      navigate (a path is resolved against the current page)
 *   click <selector>                 click the first matching element
 *   fill <selector> "<text>"         type into an input (replacing its value)
 *   press <key>                      press a key on the focused element (Enter, Tab, Control+A...)
 *   waitFor <selector>               wait until an element is visible
 *   expectText "<text>"              wait until the page's visible text contains the text
 *   expectNoText "<text>"            the page's visible text does not contain the text (now)
 *   expectTitle "<text>"             wait until the title contains the text
 *   expectUrl "<text>"               wait until the page URL contains the text
 *   wait <ms>                        pause (at most 10,000 ms)
 *
 * Blank lines and lines starting with `#` are ignored; step names are case-insensitive. Arguments
 * are bare words or double-quoted (`\"` and `\\` inside quotes). Selectors are Playwright
 * selectors: CSS by default, or `text=...`, `role=...`, `xpath=...`.
 */
export type ScenarioStep =
  | { readonly kind: 'goto'; readonly line: number; readonly target: string }
  | { readonly kind: 'click' | 'waitFor'; readonly line: number; readonly selector: string }
  | { readonly kind: 'fill'; readonly line: number; readonly selector: string; readonly text: string }
  | { readonly kind: 'press'; readonly line: number; readonly key: string }
  | { readonly kind: 'expectText' | 'expectNoText' | 'expectTitle' | 'expectUrl'; readonly line: number; readonly text: string }
  | { readonly kind: 'wait'; readonly line: number; readonly ms: number };

export type ScenarioStepKind = ScenarioStep['kind'];

export const SCENARIO_LIMITS = { maxSteps: 50, maxLineLength: 1000, maxArgumentLength: 500, maxWaitMs: 10_000 } as const;

export type ScenarioParse =
  { readonly ok: true; readonly steps: readonly ScenarioStep[] } | { readonly ok: false; readonly line: number; readonly message: string };

const KINDS: readonly ScenarioStepKind[] = [
  'goto',
  'click',
  'fill',
  'press',
  'waitFor',
  'expectText',
  'expectNoText',
  'expectTitle',
  'expectUrl',
  'wait',
];
const BY_NAME = new Map(KINDS.map((kind) => [kind.toLowerCase(), kind]));
const KEY = /^[\x21-\x7e]{1,40}$/;

class LineError extends Error {}

/** Parses and validates a whole script; the first error names its line (1-based). */
export function parseScenario(script: string): ScenarioParse {
  const steps: ScenarioStep[] = [];
  const lines = script.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = index + 1;
    const text = lines[index]!.trim();
    if (text === '' || text.startsWith('#')) continue;
    try {
      if (text.length > SCENARIO_LIMITS.maxLineLength) throw new LineError(`longer than ${SCENARIO_LIMITS.maxLineLength} characters`);
      if (steps.length === SCENARIO_LIMITS.maxSteps) throw new LineError(`a scenario has at most ${SCENARIO_LIMITS.maxSteps} steps`);
      steps.push(parseLine(text, line));
    } catch (error) {
      if (error instanceof LineError) return { ok: false, line, message: error.message };
      throw error;
    }
  }
  return { ok: true, steps };
}

function parseLine(text: string, line: number): ScenarioStep {
  const name = text.split(/[ \t]/, 1)[0]!;
  const kind = BY_NAME.get(name.toLowerCase());
  if (!kind) throw new LineError(`unknown step "${name.slice(0, 40)}" (steps: ${KINDS.join(', ')})`);
  const split = splitArguments(text.slice(name.length));
  if (!split.ok) throw new LineError(split.message);
  const args = split.args;
  const arity = kind === 'fill' ? 2 : 1;
  if (args.length !== arity) {
    throw new LineError(`${kind} takes ${arity === 2 ? 'a selector and a text' : 'one argument'}; quote an argument that contains spaces`);
  }
  for (const arg of args) {
    if (arg.value.length > SCENARIO_LIMITS.maxArgumentLength)
      throw new LineError(`an argument is longer than ${SCENARIO_LIMITS.maxArgumentLength} characters`);
  }
  const [first, second] = args as [ScenarioArgument, ScenarioArgument | undefined];
  switch (kind) {
    case 'goto':
      return { kind, line, target: gotoTarget(first.value) };
    case 'click':
    case 'waitFor':
      return { kind, line, selector: nonEmpty(first.value, 'selector') };
    case 'fill':
      return { kind, line, selector: nonEmpty(first.value, 'selector'), text: second!.value };
    case 'press':
      if (!KEY.test(first.value)) throw new LineError('press takes a key name such as Enter, Tab or Control+A');
      return { kind, line, key: first.value };
    case 'wait':
      return { kind, line, ms: waitMs(first.value) };
    default:
      return { kind, line, text: nonEmpty(first.value, 'text') };
  }
}

function nonEmpty(value: string, what: string): string {
  if (value.trim() === '') throw new LineError(`the ${what} is empty`);
  return value;
}

function gotoTarget(value: string): string {
  if (/^\/(?!\/)[^\s\u0000-\u001f\u007f\\]*$/.test(value)) return value;
  const parsed = parseTargetUrl(value);
  if (!parsed.ok) throw new LineError('goto takes an http(s) URL or a path starting with /');
  return parsed.href;
}

function waitMs(value: string): number {
  const ms = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!(ms >= 1 && ms <= SCENARIO_LIMITS.maxWaitMs)) throw new LineError(`wait takes milliseconds, 1 to ${SCENARIO_LIMITS.maxWaitMs}`);
  return ms;
}

/** A step as a script spells it, for messages and evidence. Filled texts are masked (often passwords). */
export function describeStep(step: ScenarioStep): string {
  switch (step.kind) {
    case 'goto':
      return `goto ${formatArgument(step.target)}`;
    case 'click':
    case 'waitFor':
      return `${step.kind} ${formatArgument(step.selector)}`;
    case 'fill':
      return `fill ${formatArgument(step.selector)} "***"`;
    case 'press':
      return `press ${step.key}`;
    case 'wait':
      return `wait ${step.ms}`;
    default:
      return `${step.kind} ${formatArgument(step.text)}`;
  }
}
