import type { CheckObservation, CheckStatus, CheckTimings } from './check-status';

/** The detail a result keeps when it is sampled (see detail-sampling.ts). */
export interface ResultRowDetail {
  readonly message: string | null;
  readonly timings: CheckTimings;
  readonly evidence: Record<string, unknown>;
}

/** A check result as stored: its status, total response time and reason, and its detail when kept. */
export interface ResultRow {
  readonly monitorId: number;
  readonly location: string;
  readonly status: CheckStatus;
  readonly responseTimeMs: number | null;
  readonly reasonCode: string | null;
  readonly detail: ResultRowDetail | null;
  readonly checkedAt: Date;
}

/** A result as stored, its detail aside (the engine's recording and a probe's late results alike). */
export const storedOf = (monitorId: number, location: string, result: CheckObservation): Omit<ResultRow, 'detail'> => ({
  monitorId,
  location,
  status: result.status,
  reasonCode: result.reasonCode,
  checkedAt: result.checkedAt,
  responseTimeMs: result.timings.totalMs === null ? null : Math.round(result.timings.totalMs),
});

export const detailOf = (result: CheckObservation): ResultRowDetail => ({
  message: result.message,
  timings: result.timings,
  evidence: result.evidence,
});
