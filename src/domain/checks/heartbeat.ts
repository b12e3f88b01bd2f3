import { down, type Finding } from './check-result';
import type { HeartbeatCheckRequest } from './check-request';

/** Heartbeats are judged centrally, not from a region: their schedule rows and results use this location. */
export const HEARTBEAT_LOCATION = 'heartbeat';

/** When the next beat is due at the latest: one interval after the last beat (or the start), plus grace. */
export function heartbeatDueAt(request: HeartbeatCheckRequest): Date {
  const from = request.lastBeatAt ?? request.expectingSince;
  return new Date(from.getTime() + (request.intervalSeconds + request.graceSeconds) * 1000);
}

/** A missing beat past interval + grace is down. */
export function evaluateHeartbeat(request: HeartbeatCheckRequest, now: Date): Finding[] {
  const dueAt = heartbeatDueAt(request);
  if (now.getTime() <= dueAt.getTime()) return [];
  return [
    down(
      'heartbeatMissing',
      request.lastBeatAt
        ? `No beat since ${request.lastBeatAt.toISOString()} (due by ${dueAt.toISOString()})`
        : `No beat received yet (due by ${dueAt.toISOString()})`,
    ),
  ];
}
