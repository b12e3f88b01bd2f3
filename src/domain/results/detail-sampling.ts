import type { CheckStatus } from './check-status';

/**
 * Whether a result keeps its timings, message and evidence. Up results are the vast majority and
 * alike, so only a sample keeps them: the first up after anything else, then one per sample period
 * and location. Every non-up result keeps them (they explain the failure). Every result keeps its
 * status, total response time and reason code.
 */
export function keepsDetail(
  status: CheckStatus,
  previous: { status: CheckStatus; lastDetailAt: Date | null } | undefined,
  checkedAt: Date,
  sampleMinutes: number,
): boolean {
  if (status !== 'up' || !previous || previous.status !== 'up' || previous.lastDetailAt === null) return true;
  return checkedAt.getTime() - previous.lastDetailAt.getTime() >= sampleMinutes * 60_000;
}
