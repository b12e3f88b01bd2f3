import { performance } from 'node:perf_hooks';
import type { TLSSocket } from 'node:tls';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { Pop3CheckRequest } from '../../../domain/checks/check-request';
import { down, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { certificateOf, evidenceOf } from '../shared/certificate';
import { connectPinned } from '../shared/pinned-connection';
import { ProbeError } from '../shared/probe-error';
import { runServiceProbe } from '../shared/service-probe';
import type { SharedTlsContext } from '../shared/tls-context';
import { Pop3Session } from './pop3-session';

/** POP3 in protocol mode over our pinned socket: +OK greeting, STLS or implicit TLS, optional USER/PASS, QUIT. */
export class Pop3Checker implements Checker<Pop3CheckRequest> {
  readonly kind = 'pop3' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
  ) {}

  check(request: Pop3CheckRequest, context: CheckContext): Promise<CheckResult> {
    return runServiceProbe(request, context, async (target, partial) => {
      const connection = await connectPinned(this.policy, {
        host: target.host,
        port: target.port,
        deadline: context.deadline,
        tls: request.tls === 'implicit' ? { servername: target.host, context: this.tls } : undefined,
      });
      partial.timings = connection.timings;
      const session = new Pop3Session(connection.socket);
      const unsubscribe = context.deadline.onPassed(() => session.close());
      try {
        const banner = await session.readLine();
        const firstByteAt = performance.now();
        partial.evidence = { banner };
        if (!banner.startsWith('+OK')) throw new ProbeError('protocolError', `Unexpected greeting: ${banner}`);
        if (request.tls === 'starttls') {
          const answer = await session.command('STLS');
          if (!answer.startsWith('+OK')) throw new ProbeError('starttlsUnavailable', `STLS refused: ${answer}`);
          // STLS comes after the greeting (the first byte): its handshake is part of the exchange up to totalMs,
          // reported as no TLS phase, since the phases are ordered dns <= connect <= tls <= firstByte
          await session.upgrade(this.tls, target.host);
        }
        const secure = request.tls !== 'none';
        const certificate =
          request.tls === 'implicit'
            ? connection.certificate && evidenceOf(connection.certificate, context.now)
            : secure
              ? certificateOf(session.current as TLSSocket, context.now)
              : null;
        const findings: Finding[] = [];
        let authenticated: boolean | undefined;
        if (request.credentials) {
          const user = await session.command(`USER ${request.credentials.username.replace(/[\r\n]/g, '')}`);
          const pass = user.startsWith('+OK')
            ? await session.command(`PASS ${(request.credentials.password ?? '').replace(/[\r\n]/g, '')}`)
            : user;
          authenticated = pass.startsWith('+OK');
          if (!authenticated) findings.push(down('authenticationFailed', 'The server refused the credentials'));
        }
        await session.command('QUIT').catch(() => '');
        return {
          findings,
          timings: connection.timings,
          firstByteAt,
          evidence: {
            banner,
            tls: secure,
            ...(certificate ? { certificate } : {}),
            ...(authenticated === undefined ? {} : { authenticated }),
          },
        };
      } finally {
        unsubscribe();
        session.close();
      }
    });
  }
}
