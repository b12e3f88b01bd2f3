import { performance } from 'node:perf_hooks';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { TcpCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, NO_TIMINGS, phaseTimings, type CheckResult } from '../../../domain/checks/check-result';
import { connectPinned } from '../shared/pinned-connection';
import { findingFor } from '../shared/probe-error';

/** A bare port check (also tcp mode of the service checks): connect to a vetted, pinned address, then close. */
export class NetTcpChecker implements Checker<TcpCheckRequest> {
  readonly kind = 'tcp' as const;

  constructor(private readonly policy: TargetPolicy) {}

  async check(request: TcpCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    try {
      const { socket, address, timings } = await connectPinned(this.policy, {
        host: request.host,
        port: request.port,
        deadline: context.deadline,
        noDelay: false,
      });
      socket.destroy();
      return checkResult({
        kind: 'tcp',
        findings: [],
        checkedAt: context.now,
        evidence: { target: { host: request.host, address, port: request.port } },
        timings: phaseTimings(started, timings.dnsAt, timings.connectAt, null, null, performance.now()),
      });
    } catch (error) {
      return checkResult({
        kind: 'tcp',
        findings: [findingFor(error)],
        checkedAt: context.now,
        evidence: { target: { host: request.host, address: null, port: request.port } },
        timings: NO_TIMINGS(performance.now() - started),
      });
    }
  }
}
