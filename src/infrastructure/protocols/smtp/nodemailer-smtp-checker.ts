import type { TLSSocket } from 'node:tls';
import type SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { SmtpCheckRequest } from '../../../domain/checks/check-request';
import { down, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { evaluateCertificate } from '../../../domain/checks/certificate-expiry';
import { certificateOf } from '../shared/certificate';
import { connectPinned } from '../shared/pinned-connection';
import { ProbeError } from '../shared/probe-error';
import { runServiceProbe } from '../shared/service-probe';
import type { SharedTlsContext } from '../shared/tls-context';
import { lazyModule } from '../shared/lazy-module';

/** Loaded with the first check of this kind, then kept (see lazyModule). */
const smtpConnection = lazyModule(() => import('nodemailer/lib/smtp-connection'));

/**
 * SMTP in protocol mode through nodemailer's SMTP connection over our pinned socket: banner, EHLO,
 * STARTTLS (or implicit TLS) with the certificate checked, and an optional AUTH.
 */
export class NodemailerSmtpChecker implements Checker<SmtpCheckRequest> {
  readonly kind = 'smtp' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
    private readonly heloName: string,
  ) {}

  check(request: SmtpCheckRequest, context: CheckContext): Promise<CheckResult> {
    return runServiceProbe(request, context, async (target, partial) => {
      const implicit = request.tls === 'implicit';
      const connection = await connectPinned(this.policy, {
        host: target.host,
        port: target.port,
        deadline: context.deadline,
        tls: implicit ? { servername: target.host, context: this.tls } : undefined,
      });
      partial.timings = connection.timings;
      const serverLines: string[] = [];
      const log = (data: { tnx?: string }, message: string) => {
        if (data?.tnx === 'server') serverLines.push(String(message));
      };
      const quiet = () => undefined;
      const remainingMs = Math.max(1_000, request.timeoutSeconds * 1000);
      const { default: Connection } = await smtpConnection();
      const smtp: SMTPConnection = new Connection({
        connection: connection.socket,
        secure: implicit,
        secured: implicit,
        port: target.port,
        name: this.heloName,
        requireTLS: request.tls === 'starttls',
        ignoreTLS: request.tls === 'none',
        opportunisticTLS: false,
        tls: this.tls.options(target.host),
        servername: target.host,
        connectionTimeout: remainingMs,
        greetingTimeout: remainingMs,
        socketTimeout: remainingMs,
        debug: true,
        logger: { debug: log, info: quiet, warn: quiet, error: quiet, trace: quiet, fatal: quiet, level: quiet } as never,
      });
      const unsubscribe = context.deadline.onPassed(() => smtp.close());
      try {
        await new Promise<void>((resolve, reject) => {
          smtp.once('error', reject);
          smtp.once('end', () => reject(new ProbeError('protocolError', 'The server closed the connection')));
          smtp.connect((error) => (error ? reject(error) : resolve()));
        }).catch((error: { code?: string; message?: string }) => {
          throw smtpProbeError(error, request.tls);
        });
        const banner = serverLines[0] ?? '';
        const findings: Finding[] = [];
        const socket = (smtp as unknown as { _socket: TLSSocket })._socket; // nodemailer keeps the upgraded socket here
        const certificate = smtp.secure && socket ? certificateOf(socket, context.now) : null;
        if (certificate && request.sslNoticeDays !== null) {
          findings.push(
            ...evaluateCertificate(
              {
                validFrom: new Date(certificate.validFrom),
                validTo: new Date(certificate.validTo),
                authorized: certificate.authorized,
                authorizationError: certificate.authorizationError,
              },
              { noticeDays: request.sslNoticeDays, verify: true },
              context.now,
            ),
          );
        }
        partial.evidence = { banner, tls: smtp.secure, ...(certificate ? { certificate } : {}) };
        let authenticated: boolean | undefined;
        if (request.credentials) {
          authenticated = await new Promise<boolean>((resolve) => {
            smtp.login({ user: request.credentials!.username, pass: request.credentials!.password ?? '' }, (error) => resolve(!error));
          });
          if (!authenticated) findings.push(down('authenticationFailed', 'The server refused the credentials'));
        }
        return {
          findings,
          timings: connection.timings,
          evidence: { ...partial.evidence, ...(authenticated === undefined ? {} : { authenticated }) },
        };
      } finally {
        unsubscribe();
        try {
          smtp.quit();
        } catch {
          /* already closed */
        }
        setTimeout(() => connection.socket.destroy(), 50).unref();
      }
    });
  }
}

function smtpProbeError(error: { code?: string; message?: string }, tls: SmtpCheckRequest['tls']): Error {
  if (error instanceof ProbeError) return error;
  const message = error.message ?? String(error);
  if (tls === 'starttls' && /STARTTLS/i.test(message)) return new ProbeError('starttlsUnavailable', `STARTTLS unavailable: ${message}`);
  if (error.code === 'ETLS') return new ProbeError('tlsHandshakeFailed', message);
  if (error.code === 'EPROTOCOL' || error.code === 'EENVELOPE') return new ProbeError('protocolError', message);
  return error as Error;
}
