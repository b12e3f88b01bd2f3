import type { HeartbeatCheckRequest } from '../../domain/checks/check-request';
import { checkResult, NO_TIMINGS, type CheckResult } from '../../domain/checks/check-result';
import { evaluateHeartbeat, heartbeatDueAt } from '../../domain/checks/heartbeat';
import type { CheckContext, Checker } from './ports';

/** Heartbeats need no connection: the last recorded beat against interval + grace. */
export class HeartbeatChecker implements Checker<HeartbeatCheckRequest> {
  readonly kind = 'heartbeat' as const;

  async check(request: HeartbeatCheckRequest, context: CheckContext): Promise<CheckResult> {
    return checkResult({
      kind: 'heartbeat',
      findings: evaluateHeartbeat(request, context.now),
      timings: NO_TIMINGS(0),
      checkedAt: context.now,
      evidence: { heartbeat: { lastBeatAt: request.lastBeatAt?.toISOString() ?? null, dueAt: heartbeatDueAt(request).toISOString() } },
    });
  }
}
