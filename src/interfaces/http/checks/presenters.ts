import { roundMs, type CheckResult } from '../../../domain/checks/check-result';

const round = (ms: number | null) => (ms === null ? null : roundMs(ms));

/** A check result as JSON: timings to 0.1 ms (as the checks record them), dates as ISO strings. */
export function presentCheckResult(result: CheckResult) {
  const t = result.timings;
  return {
    kind: result.kind,
    status: result.status,
    reason: result.reason,
    findings: result.findings,
    timings: {
      dnsMs: round(t.dnsMs),
      connectMs: round(t.connectMs),
      tlsMs: round(t.tlsMs),
      firstByteMs: round(t.firstByteMs),
      totalMs: round(t.totalMs)!,
    },
    evidence: result.evidence,
    checkedAt: result.checkedAt.toISOString(),
  };
}
