import { down, type Finding } from './check-result';

/** Answers compare without case, surrounding quotes or a trailing dot, with whitespace collapsed. */
export const normalizeDnsValue = (value: string): string =>
  value.trim().replace(/^"|"$/g, '').replace(/\s+/g, ' ').replace(/\.$/, '').replace(/\. /g, ' ').toLowerCase();

/** No answer is down; with expected values, every one of them must be among the answers. */
export function evaluateDnsAnswers(answers: readonly string[], expected: readonly string[]): Finding[] {
  if (answers.length === 0) return [down('dnsNoAnswer', 'The query returned no records')];
  const have = new Set(answers.map(normalizeDnsValue));
  const missing = expected.filter((value) => !have.has(normalizeDnsValue(value)));
  if (missing.length === 0) return [];
  return [down('dnsValueMismatch', `Expected ${missing.join(', ')}; got ${answers.join(', ')}`)];
}
