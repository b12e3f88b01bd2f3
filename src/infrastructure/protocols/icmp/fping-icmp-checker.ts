import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { IcmpCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, down, phaseTimings, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { evaluatePing, pingSummary } from '../../../domain/checks/icmp';
import type { FpingBatchProber } from './fping-batch-prober';

/** Ping: the host vetted and pinned by the target policy, probed in batches by fping; loss and RTT judged in the domain. */
export class FpingIcmpChecker implements Checker<IcmpCheckRequest> {
  readonly kind = 'icmp' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly prober: FpingBatchProber,
  ) {}

  async check(request: IcmpCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    const host = request.host.replace(/^\[(.*)\]$/, '$1');
    // Round trips are ping's own measure (evidence.ping.rttMs): the phases here are instants of this
    // check on one clock, so firstByteMs stays null rather than mix a duration into them.
    const finish = (findings: Finding[], address: string | null, dnsAt: number | null, ping?: ReturnType<typeof pingSummary>) =>
      checkResult({
        kind: 'icmp',
        findings,
        checkedAt: context.now,
        evidence: { target: { host, address, port: null }, ...(ping ? { ping } : {}) },
        timings: phaseTimings(started, dnsAt, null, null, null, performance.now()),
      });
    const vetting = await this.policy.vet(host);
    const resolvedAt = net.isIP(host) ? null : performance.now();
    if (!vetting.ok) {
      return vetting.reason === 'unresolvable'
        ? finish([down('dnsUnresolvable', `${host} does not resolve`)], null, resolvedAt)
        : finish([down('targetRejected', `${host} is not a public address (${vetting.reason})`)], null, resolvedAt);
    }
    const address = vetting.addresses[0]!;
    try {
      const rtts = await this.prober.probe(address, request.packets, request.timeoutSeconds * 1000);
      const seen = { sent: request.packets, rtts };
      return finish(evaluatePing(request, seen), address, resolvedAt, pingSummary(seen));
    } catch (error) {
      return finish([down('protocolError', (error as Error).message)], address, resolvedAt);
    }
  }
}
