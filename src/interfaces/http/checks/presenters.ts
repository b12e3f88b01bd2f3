import type { CheckResult } from '../../../domain/checks/check-result';

const round = (ms: number | null) => (ms === null ? null : Math.round(ms * 100) / 100);

/** A check result as JSON: timings rounded to 0.01 ms, dates as ISO strings. */
export function presentCheckResult(result: CheckResult) {
  const t = result.timings;
  return {
    kind: result.kind,
    status: result.status,
    reason: result.reason,
    findings: result.findings,
    timings: { dnsMs: round(t.dnsMs), connectMs: round(t.connectMs), tlsMs: round(t.tlsMs), firstByteMs: round(t.firstByteMs), totalMs: round(t.totalMs)! },
    evidence: result.evidence,
    checkedAt: result.checkedAt.toISOString(),
  };
}
