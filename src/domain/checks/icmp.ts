import type { IcmpCheckRequest } from './check-request';
import { degraded, down, type Finding } from './check-result';

export interface PingObservation {
  readonly sent: number;
  /** Round-trip times of the replies, ms. */
  readonly rtts: readonly number[];
}

export const pingSummary = (seen: PingObservation) => {
  const received = seen.rtts.length;
  const lossPercent = seen.sent === 0 ? 100 : Math.round(((seen.sent - received) / seen.sent) * 1000) / 10;
  const rttMs =
    received === 0
      ? null
      : {
          min: Math.min(...seen.rtts),
          avg: Math.round((seen.rtts.reduce((a, b) => a + b, 0) / received) * 1000) / 1000,
          max: Math.max(...seen.rtts),
        };
  return { sent: seen.sent, received, lossPercent, rttMs };
};

/** All packets lost is down; loss above the threshold is down, any loss below it degraded; slow RTT degraded. */
export function evaluatePing(request: IcmpCheckRequest, seen: PingObservation): Finding[] {
  const summary = pingSummary(seen);
  if (summary.received === 0) return [down('hostUnreachable', `No reply to ${summary.sent} packets`)];
  const findings: Finding[] = [];
  if (summary.lossPercent > request.maxPacketLossPercent) {
    findings.push(down('packetLoss', `${summary.lossPercent}% packet loss (threshold ${request.maxPacketLossPercent}%)`));
  } else if (summary.lossPercent > 0) {
    findings.push(degraded('packetLoss', `${summary.lossPercent}% packet loss`));
  }
  if (request.maxRttMs !== null && summary.rttMs && summary.rttMs.avg > request.maxRttMs) {
    findings.push(degraded('rttTooHigh', `Average RTT ${summary.rttMs.avg} ms, threshold ${request.maxRttMs} ms`));
  }
  return findings;
}
