import { performance } from 'node:perf_hooks';
import type { CheckContext } from '../../../application/checks/ports';
import type { ServiceCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, phaseTimings, type CheckEvidence, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { defaultPort } from '../../../domain/checks/check-mode';
import type { ConnectionTimings } from './pinned-connection';
import { checkTimedOut, deadlinePassed, findingFor, ProbeError } from './probe-error';

export interface ServiceOutcome {
  findings: Finding[];
  evidence: CheckEvidence;
  /** When the connection's phases ended (performance.now() instants, like every mark here). */
  timings: ConnectionTimings | null;
  /** When the greeting/banner arrived. */
  firstByteAt?: number | null;
}

/** What each protocol probe works on: the host without brackets and the effective port. */
export interface ServiceTarget {
  host: string;
  port: number;
}

/**
 * The frame every protocol-mode service check shares: the effective port, one timing clock
 * (performance.now(), phases counted from the frame's start), and
 * any error the probe throws turned into a down result (a probe returns findings for what it saw).
 * At the deadline the frame answers `timeout` at once, and whatever the probe throws once it has
 * passed (its session closed under it) counts as that timeout: a probe only closes its session when
 * the deadline passes (and stops listening for it when done).
 */
export async function runServiceProbe<R extends ServiceCheckRequest>(
  request: R,
  context: CheckContext,
  probe: (target: ServiceTarget, partial: Partial<ServiceOutcome>) => Promise<ServiceOutcome>,
): Promise<CheckResult> {
  const started = performance.now();
  const target = { host: request.host.replace(/^\[(.*)\]$/, '$1'), port: request.port ?? defaultPort(request) ?? 0 };
  const partial: Partial<ServiceOutcome> = {};
  let outcome: ServiceOutcome;
  try {
    // a client library that misses the deadline (a peer hanging mid-protocol) still ends at it
    outcome = await Promise.race([probe(target, partial), deadlinePassed(context.deadline)]);
  } catch (error) {
    const timedOut = context.deadline.passed && !(error instanceof ProbeError && error.code === 'timeout');
    outcome = {
      findings: [findingFor(timedOut ? checkTimedOut() : error)],
      evidence: partial.evidence ?? {},
      timings: partial.timings ?? null,
    };
  }
  const t = outcome.timings;
  return checkResult({
    kind: request.kind,
    findings: outcome.findings,
    checkedAt: context.now,
    evidence: { target: { host: target.host, address: null, port: target.port }, ...outcome.evidence },
    timings: phaseTimings(
      started,
      t?.dnsAt ?? null,
      t?.connectAt ?? null,
      t?.tlsAt ?? null,
      outcome.firstByteAt ?? null,
      performance.now(),
    ),
  });
}
