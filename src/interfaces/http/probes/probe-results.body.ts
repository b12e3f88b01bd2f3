import { z } from 'zod';
import {
  evidenceFits,
  resultFromWire,
  WIRE_LIMITS,
  type ReportedResult,
  type WireProbeStatus,
  type WireResult,
} from '../../../application/probes/wire';

/** Most results in one batch (the probe sends up to 1,000). */
export const PROBE_RESULTS_MAX = 5_000;
const { maxPhaseMs: MAX_MS, minEpochMs, maxEpochMs, maxCount, maxChecksPerSecond } = WIRE_LIMITS;

const ms = z.number().min(0).max(MAX_MS).nullable();
/** A time as epoch milliseconds, within the protocol's bounds (a date both Date and PostgreSQL keep). */
export const epochMs = z.number().int().min(minEpochMs).max(maxEpochMs);
const evidence = z.record(z.string(), z.unknown()).refine(evidenceFits, {
  message: `Evidence nests at most ${WIRE_LIMITS.maxEvidenceDepth} levels and holds at most ${WIRE_LIMITS.maxEvidenceChars} characters`,
});
const wireFinding = z.tuple([z.enum(['degraded', 'down']), z.string().max(64), z.string().max(2_000)]);
/** A result's compact form (kinds and reason codes travel as the strings the checkers produce, stored as they are). */
const WireResultSchema = z
  .tuple([
    z.number().int().positive().meta({ description: 'seq' }),
    z.string().max(120).meta({ description: 'worker' }),
    z.number().int().positive().meta({ description: 'monitorId' }),
    epochMs.meta({ description: 'slot' }),
    epochMs.meta({ description: 'startedAt' }),
    epochMs.meta({ description: 'checkedAt' }),
    z.string().max(40).meta({ description: 'kind' }),
    z.number().min(0).max(MAX_MS).meta({ description: 'totalMs' }),
    ms.meta({ description: 'dnsMs' }),
    ms.meta({ description: 'connectMs' }),
    ms.meta({ description: 'tlsMs' }),
    ms.meta({ description: 'firstByteMs' }),
    z.array(wireFinding).max(50).nullable().meta({ description: 'findings, worst first: [status, code, message]; null: none (up)' }),
    evidence.meta({ description: 'evidence' }),
  ])
  .meta({
    id: 'ProbeResult',
    description:
      'One check result: [seq, worker, monitorId, slot, startedAt, checkedAt, kind, totalMs, dnsMs, connectMs, tlsMs, ' +
      'firstByteMs, findings, evidence]. Times are epoch milliseconds, phases milliseconds from the start of the check; ' +
      'status and reason follow from the findings.',
  });

const finding = z.object({ status: z.enum(['degraded', 'down']), code: z.string().max(64), message: z.string().max(2_000) });
/** The object form probes wrote before the compact one: still read, so results buffered across an upgrade are kept. */
const ObjectResultSchema = z
  .object({
    seq: z.number().int().positive(),
    worker: z.string().max(120),
    monitorId: z.number().int().positive(),
    slot: epochMs,
    startedAt: epochMs,
    result: z.object({
      kind: z.string().max(40),
      status: z.enum(['up', 'degraded', 'down']),
      reason: finding.nullable(),
      findings: z.array(finding).max(50),
      timings: z.object({ dnsMs: ms, connectMs: ms, tlsMs: ms, firstByteMs: ms, totalMs: z.number().min(0).max(MAX_MS) }),
      evidence,
      checkedAt: epochMs,
    }),
  })
  .meta({ deprecated: true, description: 'The object form of earlier probes (read, never written)' });

const StatusSchema = z.object({
  monitorsHeld: z.number().int().min(0).max(maxCount),
  checksPerSecond: z.number().min(0).max(maxChecksPerSecond),
  lagMs: z.number().int().min(0),
  buffered: z.number().int().min(0).max(maxCount),
  dropped: z.number().int().min(0),
});

/** The results body: what it accepts is what this schema accepts (the fast reader below only answers sooner). */
export const ResultsBody = z.object({
  results: z.array(z.union([WireResultSchema, ObjectResultSchema])).max(PROBE_RESULTS_MAX),
  status: StatusSchema,
});

/** A batch of results as the use case takes it. */
export interface ReadResults {
  readonly results: ReportedResult[];
  readonly status: WireProbeStatus;
}

/**
 * Reads a results body: a batch of compact results is checked field by field in place (no copy, no
 * schema walk per result); anything else (an object-form result, a malformed batch) goes through
 * `ResultsBody`, which decides and names the issues. The fast check accepts nothing the schema
 * refuses, so both ways read a batch alike (a property test holds them together).
 */
export function readResultsBody(body: unknown): ReadResults {
  const fast = compactBatch(body);
  const parsed = fast ?? ResultsBody.parse(body);
  return { results: parsed.results.map(reportedOf), status: parsed.status };
}

type ObjectResult = z.output<typeof ObjectResultSchema>;

const reportedOf = (item: WireResult | ObjectResult): ReportedResult =>
  Array.isArray(item) ? resultFromWire(item as WireResult) : fromObject(item as ObjectResult);

/** The object form read as the compact one it stands for. */
function fromObject({ seq, worker, monitorId, slot, startedAt, result }: ObjectResult): ReportedResult {
  // Engine results carry their reason among the findings; an object without findings still has its reason.
  const findings = result.findings.length > 0 ? result.findings : result.reason ? [result.reason] : [];
  const { totalMs, dnsMs, connectMs, tlsMs, firstByteMs } = result.timings;
  return resultFromWire([
    seq,
    worker,
    monitorId,
    slot,
    startedAt,
    result.checkedAt,
    result.kind,
    totalMs,
    dnsMs,
    connectMs,
    tlsMs,
    firstByteMs,
    findings.length === 0 ? null : findings.map((f) => [f.status, f.code, f.message] as const),
    result.evidence,
  ]);
}

/** The body as it came, when it is a batch of well-formed compact results; null otherwise (the schema decides). */
export function compactBatch(body: unknown): { results: WireResult[]; status: WireProbeStatus } | null {
  if (!isObject(body)) return null;
  const { results, status } = body as { results?: unknown; status?: unknown };
  if (!Array.isArray(results) || results.length > PROBE_RESULTS_MAX || !isStatus(status)) return null;
  for (const result of results) if (!isCompactResult(result)) return null;
  return { results: results as WireResult[], status };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isInt = (value: unknown): value is number => Number.isSafeInteger(value);
const isCount = (value: unknown, max = Number.MAX_SAFE_INTEGER) => isInt(value) && value >= 0 && value <= max;
const isEpoch = (value: unknown) => isInt(value) && value >= minEpochMs && value <= maxEpochMs;
const isMs = (value: unknown) => typeof value === 'number' && value >= 0 && value <= MAX_MS;
const isText = (value: unknown, max: number) => typeof value === 'string' && value.length <= max;

function isStatus(value: unknown): value is WireProbeStatus {
  if (!isObject(value)) return false;
  const { monitorsHeld, checksPerSecond, lagMs, buffered, dropped } = value;
  const rate = typeof checksPerSecond === 'number' && checksPerSecond >= 0 && checksPerSecond <= maxChecksPerSecond;
  return rate && isCount(monitorsHeld, maxCount) && isCount(lagMs) && isCount(buffered, maxCount) && isCount(dropped);
}

function isCompactResult(value: unknown): boolean {
  if (!Array.isArray(value) || value.length !== 14) return false;
  const [seq, worker, monitorId, slot, startedAt, checkedAt, kind, totalMs, dnsMs, connectMs, tlsMs, firstByteMs, findings, evidence] =
    value as unknown[];
  return (
    isInt(seq) &&
    seq > 0 &&
    isText(worker, 120) &&
    isInt(monitorId) &&
    monitorId > 0 &&
    isEpoch(slot) &&
    isEpoch(startedAt) &&
    isEpoch(checkedAt) &&
    isText(kind, 40) &&
    isMs(totalMs) &&
    (dnsMs === null || isMs(dnsMs)) &&
    (connectMs === null || isMs(connectMs)) &&
    (tlsMs === null || isMs(tlsMs)) &&
    (firstByteMs === null || isMs(firstByteMs)) &&
    (findings === null || areFindings(findings)) &&
    evidenceFits(evidence)
  );
}

function areFindings(value: unknown): boolean {
  if (!Array.isArray(value) || value.length > 50) return false;
  for (const f of value) {
    if (!Array.isArray(f) || f.length !== 3 || (f[0] !== 'degraded' && f[0] !== 'down') || !isText(f[1], 64) || !isText(f[2], 2_000))
      return false;
  }
  return true;
}
