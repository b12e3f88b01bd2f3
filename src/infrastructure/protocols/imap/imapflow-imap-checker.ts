import type { ImapFlow as ImapClient } from 'imapflow';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { TLSSocket } from 'node:tls';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { ImapCheckRequest } from '../../../domain/checks/check-request';
import { down, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { certificateOf } from '../shared/certificate';
import { ProbeError } from '../shared/probe-error';
import { vetTarget } from '../shared/pinned-connection';
import { runServiceProbe } from '../shared/service-probe';
import type { SharedTlsContext } from '../shared/tls-context';
import { lazyModule } from '../shared/lazy-module';

/** Loaded with the first check of this kind, then kept (see lazyModule). */
const imapflow = lazyModule(() => import('imapflow'));

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * IMAP in protocol mode with imapflow, connected to the address the target policy vetted (SNI keeps
 * the name): the greeting, STARTTLS or implicit TLS, and an optional LOGIN. Without credentials,
 * imapflow stops at "Please configure the login" after greeting, CAPABILITY and STARTTLS: that
 * point is the check's success.
 */
export class ImapflowImapChecker implements Checker<ImapCheckRequest> {
  readonly kind = 'imap' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
  ) {}

  check(request: ImapCheckRequest, context: CheckContext): Promise<CheckResult> {
    return runServiceProbe(request, context, async (target) => {
      // Loaded with the first IMAP check, before anything is timed: a service without one never holds it (4 MB of heap).
      const { ImapFlow } = await imapflow();
      const addresses = await vetTarget(this.policy, target.host);
      const dnsAt = net.isIP(target.host) ? null : performance.now();
      const timeoutMs = request.timeoutSeconds * 1000;
      const creds = request.credentials;
      const client = new ImapFlow({
        host: addresses[0]!,
        port: target.port,
        servername: target.host,
        secure: request.tls === 'implicit',
        doSTARTTLS: request.tls === 'starttls' ? true : request.tls === 'none' ? false : undefined,
        tls: this.tls.options(target.host) as never,
        logger: silent as never,
        verifyOnly: true,
        auth: creds ? { user: creds.username, pass: creds.password ?? '' } : undefined,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      } as ConstructorParameters<typeof ImapFlow>[0]);
      client.on('error', () => undefined);
      const unsubscribe = context.deadline.onPassed(() => client.close());
      const findings: Finding[] = [];
      let authenticated: boolean | undefined;
      try {
        const closed = new Promise<never>((_, reject) => {
          // a close before any greeting (a BYE, a dropped connection) would otherwise wait for the deadline
          client.once('close', () => {
            if (!greetingOf(client)) reject(new ProbeError('protocolError', 'The server closed the connection without a greeting'));
          });
        });
        closed.catch(() => undefined);
        await Promise.race([client.connect(), closed]);
        authenticated = creds ? true : undefined;
      } catch (error) {
        const err = error as Error & { authenticationFailed?: boolean; tlsFailed?: boolean; code?: string };
        const greeted = greetingOf(client) !== '';
        if (!creds && greeted && /configure the login/i.test(err.message)) {
          // no credentials: greeting, CAPABILITY and STARTTLS passed, which is the check
        } else if (creds && err.authenticationFailed) {
          authenticated = false;
          findings.push(down('authenticationFailed', 'The server refused the credentials'));
        } else if (err.tlsFailed) {
          throw new ProbeError(request.tls === 'starttls' ? 'starttlsUnavailable' : 'tlsHandshakeFailed', err.message);
        } else {
          throw err;
        }
      } finally {
        unsubscribe();
      }
      const socket = (client as unknown as { socket?: TLSSocket }).socket;
      const secure = Boolean((client as unknown as { secureConnection?: boolean }).secureConnection);
      const certificate = secure && socket && typeof socket.getPeerCertificate === 'function' ? certificateOf(socket, context.now) : null;
      const banner = greetingOf(client);
      client.close();
      return {
        // imapflow connects, greets, negotiates and logs in as one step: its end is when the connection was up
        findings,
        timings: { dnsAt, connectAt: performance.now(), tlsAt: null },
        evidence: {
          banner,
          tls: secure,
          ...(certificate ? { certificate } : {}),
          ...(authenticated === undefined ? {} : { authenticated }),
        },
      };
    });
  }
}

/** imapflow keeps the server greeting's text once the untagged OK arrived. */
const greetingOf = (client: ImapClient): string => (client as unknown as { greeting?: string }).greeting ?? '';
