import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { TLSSocket } from 'node:tls';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { FtpCheckRequest } from '../../../domain/checks/check-request';
import { down, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { certificateOf } from '../shared/certificate';
import { ProbeError } from '../shared/probe-error';
import { vetTarget } from '../shared/pinned-connection';
import { runServiceProbe } from '../shared/service-probe';
import type { SharedTlsContext } from '../shared/tls-context';
import { lazyModule } from '../shared/lazy-module';

/** Loaded with the first check of this kind, then kept (see lazyModule). */
const basicFtp = lazyModule(() => import('basic-ftp'));

/**
 * FTP in protocol mode with basic-ftp: the welcome banner, AUTH TLS (explicit) or implicit TLS, and
 * an optional login. basic-ftp opens its own control socket, so it is handed the address the target
 * policy vetted (pinned), with the host name kept for TLS SNI.
 */
export class BasicFtpChecker implements Checker<FtpCheckRequest> {
  readonly kind = 'ftp' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
  ) {}

  check(request: FtpCheckRequest, context: CheckContext): Promise<CheckResult> {
    return runServiceProbe(request, context, async (target) => {
      // Loaded with the first FTP check, before anything is timed: a service without one never holds it.
      const { Client } = await basicFtp();
      const addresses = await vetTarget(this.policy, target.host);
      const dnsAt = net.isIP(target.host) ? null : performance.now();
      const client = new Client(request.timeoutSeconds * 1000);
      const unsubscribe = context.deadline.onPassed(() => client.close());
      const tlsOptions = this.tls.options(target.host);
      try {
        // basic-ftp answers connect with the welcome: the connection ends with it (and with the handshake, implicit TLS)
        const welcome =
          request.tls === 'implicit'
            ? await client.connectImplicitTLS(addresses[0], target.port, tlsOptions)
            : await client.connect(addresses[0], target.port);
        const connectAt = performance.now();
        let tlsAt: number | null = request.tls === 'implicit' ? connectAt : null;
        if (request.tls === 'explicit') {
          await client.useTLS(tlsOptions).catch((error: Error) => {
            throw new ProbeError('starttlsUnavailable', `AUTH TLS failed: ${error.message}`);
          });
          tlsAt = performance.now();
        }
        const socket = client.ftp.socket as TLSSocket;
        const certificate =
          request.tls !== 'none' && typeof socket.getPeerCertificate === 'function' ? certificateOf(socket, context.now) : null;
        const findings: Finding[] = [];
        let authenticated: boolean | undefined;
        if (request.credentials) {
          authenticated = await client.login(request.credentials.username, request.credentials.password ?? '').then(
            () => true,
            () => false,
          );
          if (!authenticated) findings.push(down('authenticationFailed', 'The server refused the credentials'));
        }
        return {
          findings,
          timings: { dnsAt, connectAt, tlsAt },
          evidence: {
            banner: welcome.message.trim(),
            tls: request.tls !== 'none',
            ...(certificate ? { certificate } : {}),
            ...(authenticated === undefined ? {} : { authenticated }),
          },
        };
      } finally {
        unsubscribe();
        client.close();
      }
    });
  }
}
