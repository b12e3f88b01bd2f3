import { performance } from 'node:perf_hooks';
import tls, { type TLSSocket } from 'node:tls';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { MysqlCheckRequest } from '../../../domain/checks/check-request';
import { down, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { connectPinned } from '../shared/pinned-connection';
import { ProbeError } from '../shared/probe-error';
import { excerpt, resultMismatch, runDatabaseProbe, tlsOutcome } from '../shared/database-probe';
import type { SharedTlsContext } from '../shared/tls-context';
import { lazyModule } from '../shared/lazy-module';

/** Loaded with the first check of this kind, then kept (see lazyModule). */
const mysql2 = lazyModule(() => import('mysql2'));

/** Server errors of a refused login: ER_ACCESS_DENIED_ERROR, ER_DBACCESS_DENIED_ERROR, ER_NOT_SUPPORTED_AUTH_MODE. */
const AUTH_FAILED = new Set([1045, 1044, 1251]);

/**
 * MySQL and MariaDB with mysql2, over a socket connected to the address the target policy vetted
 * (pinned: mysql2 is handed the socket, and the host name only for TLS's SNI and identity). TLS is
 * the protocol's in-band upgrade, mysql2's context built once per checker from the same roots as
 * the shared context's; the chain is judged on the result (verify-full), never by refusing the
 * handshake. Every value comes back as the server's text.
 */
export class Mysql2MysqlChecker implements Checker<MysqlCheckRequest> {
  readonly kind = 'mysql' as const;
  /** One object per checker: mysql2 keys its secure context (and TLS sessions) by it. */
  private readonly ssl: { ca: string[]; rejectUnauthorized: false; verifyIdentity: true };

  constructor(
    private readonly policy: TargetPolicy,
    tlsContext: SharedTlsContext,
  ) {
    this.ssl = { ca: [...tls.rootCertificates, ...tlsContext.extraCa], rejectUnauthorized: false, verifyIdentity: true };
  }

  check(request: MysqlCheckRequest, context: CheckContext): Promise<CheckResult> {
    return runDatabaseProbe(request, context, async (host, progress) => {
      // Loaded with the first MySQL check, as the other client libraries.
      const mysql = await mysql2();
      const pinned = await connectPinned(this.policy, { host, port: request.port, deadline: context.deadline });
      progress.address = pinned.address;
      const credentials = request.credentials;
      const connection = mysql.createConnection({
        stream: pinned.socket,
        host,
        port: request.port,
        user: credentials?.username ?? '',
        password: credentials?.password ?? '',
        ...(request.database === null ? {} : { database: request.database }),
        ...(request.ssl === 'disable' ? {} : { ssl: this.ssl }),
        connectTimeout: request.timeoutSeconds * 1000,
        typeCast: false,
        rowsAsArray: true,
        multipleStatements: false,
      });
      connection.on('error', ignoreError);
      const unsubscribe = context.deadline.onPassed(() => connection.destroy());
      try {
        await new Promise<void>((resolve, reject) =>
          connection.connect((error) => (error ? reject(loginError(error as MysqlError)) : resolve())),
        );
        const connectAt = performance.now();
        const stream = (connection as unknown as { stream: TLSSocket }).stream;
        const secured = tlsOutcome(request, request.ssl === 'disable' ? null : stream, context.now);
        const timings = { ...pinned.timings, tlsAt: request.ssl === 'disable' ? null : connectAt };
        const authenticated = credentials ? { authenticated: true } : {};
        if (secured.findings.length > 0)
          return { ...secured, evidence: { ...secured.evidence, ...authenticated }, timings, firstByteAt: null };
        const rows = await new Promise<unknown>((resolve, reject) =>
          connection.query(request.query, (error, answer) =>
            error ? reject(new ProbeError('protocolError', `The query failed: ${error.message}`)) : resolve(answer),
          ),
        );
        const firstByteAt = performance.now();
        const first = Array.isArray(rows) ? (rows[0] as unknown[] | undefined)?.[0] : undefined;
        const result =
          first === undefined ? null : first === null ? 'NULL' : Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
        const findings: Finding[] = [];
        if (request.expectedResult !== null && result !== request.expectedResult)
          findings.push(down('assertionFailed', resultMismatch(request.expectedResult, result)));
        const evidence = { ...secured.evidence, ...authenticated, ...(result === null ? {} : { banner: excerpt(result) }) };
        return { findings, evidence, timings, firstByteAt };
      } finally {
        unsubscribe();
        connection.destroy();
        pinned.socket.destroy();
      }
    });
  }
}

interface MysqlError extends Error {
  code?: string;
  errno?: number;
}

/** A failed connect as the finding it becomes: a refused login, a server without TLS, or as it came. */
function loginError(error: MysqlError): Error {
  if (error.errno !== undefined && AUTH_FAILED.has(error.errno)) return new ProbeError('authenticationFailed', error.message);
  if (error.code === 'HANDSHAKE_NO_SSL_SUPPORT') return new ProbeError('tlsHandshakeFailed', 'The server does not support TLS');
  return error;
}

/** Errors after the outcome is known (a closed connection) are of no interest; closes over nothing. */
const ignoreError = () => undefined;
