/** What one check from one location concluded. `degraded` = reachable but a soft rule failed (slow, size...). */
export const CHECK_STATUSES = ['up', 'degraded', 'down'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** Per-phase durations in milliseconds; null when the phase did not happen (no TLS, cached DNS...). */
export interface CheckTimings {
  readonly dnsMs: number | null;
  readonly connectMs: number | null;
  readonly tlsMs: number | null;
  readonly firstByteMs: number | null;
  readonly totalMs: number | null;
}

/** One result as the checkers produce it (the check engine's `CheckResult`). */
export interface CheckObservation {
  readonly status: CheckStatus;
  /** Stable reason of a non-up result (`timeout`, `httpStatus`, `sslExpiringSoon`...); null when up. */
  readonly reasonCode: string | null;
  readonly message: string | null;
  readonly timings: CheckTimings;
  /** What the checker saw: HTTP status and headers, certificate summary, DNS answers, banner... */
  readonly evidence: Record<string, unknown>;
  readonly checkedAt: Date;
}
