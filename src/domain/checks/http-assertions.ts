import type { HttpAssertions } from './check-request';
import { degraded, down, type Finding } from './check-result';

const PATTERN = /^(?:([1-5])xx|(\d{3})(?:-(\d{3}))?)$/i;

/** True when `pattern` is a valid status pattern: `200`, `2xx`, `200-299`. */
export const isStatusPattern = (pattern: string): boolean => {
  const match = PATTERN.exec(pattern.trim());
  if (!match) return false;
  if (match[1]) return true;
  const from = Number(match[2]);
  const to = match[3] ? Number(match[3]) : from;
  return from >= 100 && to <= 599 && from <= to;
};

export function statusMatches(status: number, patterns: readonly string[]): boolean {
  return patterns.some((raw) => {
    const match = PATTERN.exec(raw.trim());
    if (!match) return false;
    if (match[1]) return Math.floor(status / 100) === Number(match[1]);
    const from = Number(match[2]);
    const to = match[3] ? Number(match[3]) : from;
    return status >= from && status <= to;
  });
}

/** What the HTTP probe saw, reduced to what the assertions need. */
export interface HttpObservation {
  readonly status: number;
  /** Decoded body text as far as read (for the keyword check); null when not read (HEAD). */
  readonly bodyText: string | null;
  readonly bodyBytes: number;
  readonly totalMs: number;
  /** For the HTTPS-redirect check: null when not checked, else whether it ended on https. */
  readonly redirectedToHttps: boolean | null;
}

/** Status, keyword present or absent, page size, response time and the HTTPS redirect. */
export function evaluateHttp(assertions: HttpAssertions, seen: HttpObservation): Finding[] {
  const findings: Finding[] = [];
  const { expectedStatusCodes, keyword, minPageSize, maxPageSize, maxResponseTimeMs } = assertions;
  if (expectedStatusCodes && !statusMatches(seen.status, expectedStatusCodes)) {
    findings.push(down('unexpectedStatus', `HTTP ${seen.status}, expected ${expectedStatusCodes.join(', ')}`));
  }
  if (keyword && seen.bodyText !== null) {
    const found = keyword.caseSensitive
      ? seen.bodyText.includes(keyword.value)
      : seen.bodyText.toLowerCase().includes(keyword.value.toLowerCase());
    if (keyword.mode === 'present' && !found) findings.push(down('keywordMissing', `Keyword "${keyword.value}" not found`));
    if (keyword.mode === 'absent' && found) findings.push(down('keywordFound', `Keyword "${keyword.value}" found`));
  }
  if (minPageSize !== null && seen.bodyBytes < minPageSize) {
    findings.push(down('pageTooSmall', `Page is ${seen.bodyBytes} bytes, minimum ${minPageSize}`));
  }
  if (maxPageSize !== null && seen.bodyBytes > maxPageSize) {
    findings.push(down('pageTooLarge', `Page is over ${maxPageSize} bytes (${seen.bodyBytes} read)`));
  }
  if (maxResponseTimeMs !== null && seen.totalMs > maxResponseTimeMs) {
    findings.push(degraded('responseTooSlow', `Response took ${Math.round(seen.totalMs)} ms, threshold ${maxResponseTimeMs} ms`));
  }
  if (assertions.httpsRedirect && seen.redirectedToHttps === false) {
    findings.push(down('httpsRedirectMissing', 'The plain-HTTP address does not redirect to HTTPS'));
  }
  return findings;
}

/** The plain-HTTP address whose redirect is checked: the url itself, or its http: twin on the default port. */
export function httpsRedirectProbeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'http:') return parsed.toString();
  parsed.protocol = 'http:';
  parsed.port = '';
  return parsed.toString();
}
