import { performance } from 'node:perf_hooks';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { TlsCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, down, NO_TIMINGS, phaseTimings, type CheckResult } from '../../../domain/checks/check-result';
import { evaluateCertificate } from '../../../domain/checks/certificate-expiry';
import { evidenceOf } from '../shared/certificate';
import { connectPinned } from '../shared/pinned-connection';
import { findingFor } from '../shared/probe-error';
import type { SharedTlsContext } from '../shared/tls-context';

/** A TLS handshake (shared secure context) that reports and judges the certificate chain. */
export class NodeTlsChecker implements Checker<TlsCheckRequest> {
  readonly kind = 'tls' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
  ) {}

  async check(request: TlsCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    const servername = request.host.replace(/^\[(.*)\]$/, '$1');
    try {
      const {
        socket,
        address,
        timings,
        certificate: chain,
      } = await connectPinned(this.policy, {
        host: request.host,
        port: request.port,
        deadline: context.deadline,
        tls: { servername, context: this.tls },
      });
      const certificate = chain && evidenceOf(chain, context.now);
      socket.destroy();
      const findings = certificate
        ? evaluateCertificate(
            {
              validFrom: new Date(certificate.validFrom),
              validTo: new Date(certificate.validTo),
              authorized: certificate.authorized,
              authorizationError: certificate.authorizationError,
            },
            { noticeDays: request.noticeDays, verify: true },
            context.now,
          )
        : [down('tlsHandshakeFailed', 'The peer sent no certificate')];
      return checkResult({
        kind: 'tls',
        findings,
        checkedAt: context.now,
        evidence: { target: { host: request.host, address, port: request.port }, ...(certificate ? { certificate } : {}) },
        timings: phaseTimings(started, timings.dnsAt, timings.connectAt, timings.tlsAt, null, performance.now()),
      });
    } catch (error) {
      return checkResult({
        kind: 'tls',
        findings: [findingFor(error)],
        checkedAt: context.now,
        evidence: { target: { host: request.host, address: null, port: request.port } },
        timings: NO_TIMINGS(performance.now() - started),
      });
    }
  }
}
