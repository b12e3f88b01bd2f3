import type { CheckKind, CheckRequest } from '../../domain/checks/check-request';
import { checkResult, type CheckEvidence, type CheckReasonCode, type CheckResult } from '../../domain/checks/check-result';
import type { ClaimedCheck, ScheduleChange } from '../scheduling/ports';

/**
 * The probe protocol's JSON forms (version 1): what the server and a probe exchange over HTTPS.
 * Times travel as epoch milliseconds; both sides convert with these functions only.
 */
export const PROBE_PROTOCOL_VERSION = 1;

/**
 * The protocol's bounds: what a probe may send, as the service's schema and its fast reader both
 * hold them (beyond them, 400 naming the field). Each is far above what a probe sends and within
 * what the service stores: dates PostgreSQL and Date both keep, counts within their columns, and
 * evidence a bounded tree.
 */
export const WIRE_LIMITS = {
  /** Epoch milliseconds: 2000-01-01 to 2100-01-01 (how far a result may be ahead of the service's clock is the use case's rule). */
  minEpochMs: 946_684_800_000,
  maxEpochMs: 4_102_444_800_000,
  /** A check's phases and total, in milliseconds. */
  maxPhaseMs: 3_600_000,
  /** A schedule row's interval and phase (30 days: above the heartbeat ceiling of 43,200 minutes). */
  maxIntervalMs: 2_592_000_000,
  /** `monitorsHeld` and `buffered` (integer columns). */
  maxCount: 2_147_483_647,
  /** `checksPerSecond`. */
  maxChecksPerSecond: 1_000_000,
  /** Nesting levels of a result's evidence (the evidence object is the first; the checkers' deepest is 4). */
  maxEvidenceDepth: 8,
  /** A result's evidence, in characters of its keys and values (the checkers' largest, a certificate chain or response headers, are a few thousand). */
  maxEvidenceChars: 64 * 1024,
} as const;

/**
 * Whether a result's evidence stays within its bounds: an object nesting at most `maxEvidenceDepth`
 * levels and about `maxEvidenceChars` characters of JSON (counted as it walks, without serialising,
 * and stopping as soon as either is passed: a body 100,000 levels deep is refused at level 9).
 */
export function evidenceFits(evidence: unknown): boolean {
  if (typeof evidence !== 'object' || evidence === null || Array.isArray(evidence)) return false;
  const { maxEvidenceDepth, maxEvidenceChars } = WIRE_LIMITS;
  const stack: Array<{ node: object; depth: number }> = [{ node: evidence, depth: 1 }];
  let chars = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    const isArray = Array.isArray(node);
    chars += 2;
    for (const key in node) {
      const value = (node as Record<string, unknown>)[key];
      chars += isArray ? 1 : key.length + 4;
      if (typeof value === 'string') chars += value.length + 2;
      else if (typeof value === 'object' && value !== null) {
        if (depth >= maxEvidenceDepth) return false;
        stack.push({ node: value, depth: depth + 1 });
      } else chars += 8;
      if (chars > maxEvidenceChars) return false;
    }
  }
  return true;
}

/** A held row: [monitorId, slot (ms), intervalMs, phaseMs]; the location is the probe's. */
export type WireRow = [number, number, number, number];

export const rowToWire = (row: ClaimedCheck): WireRow => [row.monitorId, row.slot.getTime(), row.intervalMs, row.phaseMs];
export const rowFromWire = ([monitorId, slot, intervalMs, phaseMs]: WireRow, location: string): ClaimedCheck => ({
  monitorId,
  location,
  slot: new Date(slot),
  intervalMs,
  phaseMs,
});

/** What a row runs. Owners are not sent: the server knows them and never takes them from a probe. */
export interface WirePlan {
  readonly monitorId: number;
  readonly request: CheckRequest;
}

export interface WireChange {
  readonly seq: number;
  readonly monitorId: number;
  readonly triggered: boolean;
  readonly at: number;
  /**
   * Added to protocol 1 (probes that ignore it still stop in time: their re-read of the monitor's
   * held rows answers none): present (true) when the monitor has no schedule row at the probe's
   * location any more (paused, deleted, location removed), so a probe holding it drops it.
   */
  readonly gone?: true;
}
export const changeToWire = (c: ScheduleChange): WireChange => ({
  seq: c.seq,
  monitorId: c.monitorId,
  triggered: c.triggered,
  at: c.at.getTime(),
});
export const changeFromWire = (c: WireChange): ScheduleChange => ({
  seq: c.seq,
  monitorId: c.monitorId,
  triggered: c.triggered,
  at: new Date(c.at),
});

/** A finding as a probe reports it: [status, code, message]. */
export type WireFinding = readonly [status: 'degraded' | 'down', code: string, message: string];

/**
 * A check result as a probe reports it: one JSON array per result, a batch of a thousand read in
 * about a millisecond. `seq` numbers the probe's results, once each, in order; `worker` is the
 * worker name (generation included) that ran it, so results of a fenced or lapsed worker are stored
 * as late. Times are epoch milliseconds, phases milliseconds from the check's start. Status and
 * reason follow from the findings (worst first), as the engine derives them; no findings: up.
 */
export type WireResult = readonly [
  seq: number,
  worker: string,
  monitorId: number,
  slot: number,
  startedAt: number,
  checkedAt: number,
  kind: string,
  totalMs: number,
  dnsMs: number | null,
  connectMs: number | null,
  tlsMs: number | null,
  firstByteMs: number | null,
  findings: readonly WireFinding[] | null,
  evidence: Readonly<Record<string, unknown>>,
];

/** A result as the server reads it from a probe's report. */
export interface ReportedResult {
  readonly seq: number;
  readonly worker: string;
  readonly monitorId: number;
  readonly slot: number;
  readonly startedAt: number;
  readonly result: CheckResult;
}

export const resultToWire = (
  seq: number,
  worker: string,
  monitorId: number,
  slot: Date,
  startedAt: Date,
  result: CheckResult,
): WireResult => {
  const { timings } = result;
  return [
    seq,
    worker,
    monitorId,
    slot.getTime(),
    startedAt.getTime(),
    result.checkedAt.getTime(),
    result.kind,
    timings.totalMs,
    timings.dnsMs,
    timings.connectMs,
    timings.tlsMs,
    timings.firstByteMs,
    result.findings.length === 0 ? null : result.findings.map((f): WireFinding => [f.status, f.code, f.message]),
    result.evidence as Readonly<Record<string, unknown>>,
  ];
};

/** What a probe reported, as the engine's result (findings ordered and status derived by the domain). */
export const resultFromWire = (wire: WireResult): ReportedResult => {
  const [seq, worker, monitorId, slot, startedAt, checkedAt, kind, totalMs, dnsMs, connectMs, tlsMs, firstByteMs, findings, evidence] =
    wire;
  return {
    seq,
    worker,
    monitorId,
    slot,
    startedAt,
    result: checkResult({
      kind: kind as CheckKind,
      findings: findings === null ? [] : findings.map(([status, code, message]) => ({ status, code: code as CheckReasonCode, message })),
      timings: { dnsMs, connectMs, tlsMs, firstByteMs, totalMs },
      evidence: evidence as CheckEvidence,
      checkedAt: new Date(checkedAt),
    }),
  };
};

/** How a probe is doing, sent with each batch of results and shown in the location's status. */
export interface WireProbeStatus {
  readonly monitorsHeld: number;
  readonly checksPerSecond: number;
  /** Age of the oldest result waiting in the probe's buffer (ms). */
  readonly lagMs: number;
  /** Results waiting in the probe's buffer. */
  readonly buffered: number;
  /** Results the probe dropped from its full buffer since it started (oldest first). */
  readonly dropped: number;
}
