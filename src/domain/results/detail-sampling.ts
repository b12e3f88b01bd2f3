import type { CheckStatus } from './check-status';

/** The result a sampling decision is about. */
export interface SampledResult {
  readonly monitorId: number;
  readonly checkedAt: Date;
  /** The monitor's check interval: the stretch of time this result speaks for. */
  readonly intervalMs: number;
}

/**
 * Whether a result keeps its timings, message and evidence. Up results are the vast majority and
 * alike, so only a sample keeps them: the first up after anything else, then one per sample period
 * and location (`isDetailSample`). Every non-up result keeps them (they explain the failure). Every
 * result keeps its status, total response time and reason code.
 */
export function keepsDetail(
  status: CheckStatus,
  previousStatus: CheckStatus | undefined,
  result: SampledResult,
  sampleMinutes: number,
): boolean {
  return status !== 'up' || previousStatus !== 'up' || isDetailSample(result, sampleMinutes);
}

/**
 * Whether an up result that follows an up is its period's sample, told by a grid rather than by
 * remembering the last sample: the result is a sample when a boundary of its monitor's sample grid
 * (the period, offset by a phase drawn from the monitor's id, so that monitors sample at different
 * moments) falls within the check interval that ends with it. Checks on their interval keep one
 * result per period and location without any state to update, so the engine stores samples
 * together with its steady results. A check that runs off its interval (a trigger) may add a
 * sample; one after a gap (no checker running) may leave a period without one.
 */
export function isDetailSample(result: SampledResult, sampleMinutes: number): boolean {
  const period = sampleMinutes * 60_000;
  if (period === 0 || result.intervalMs >= period) return true;
  const t = result.checkedAt.getTime() - phaseOf(result.monitorId, period);
  return Math.floor(t / period) !== Math.floor((t - result.intervalMs) / period);
}

/** A stable, well-spread offset within the period (Fibonacci hashing of the id). */
const phaseOf = (monitorId: number, period: number): number => (Math.imul(monitorId, 0x9e3779b1) >>> 0) % period;
