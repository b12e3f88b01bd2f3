import { performance } from 'node:perf_hooks';
import type { TLSSocket } from 'node:tls';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { PostgresCheckRequest } from '../../../domain/checks/check-request';
import { down, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { vetTarget } from '../shared/pinned-connection';
import { ProbeError } from '../shared/probe-error';
import { excerpt, resolvedAt, resultMismatch, runDatabaseProbe, tlsOutcome } from '../shared/database-probe';
import type { SharedTlsContext } from '../shared/tls-context';
import { lazyModule } from '../shared/lazy-module';

/** Loaded with the first check of this kind, then kept (see lazyModule). */
const pgClient = lazyModule(() => import('pg'));

/** SQLSTATEs of a refused login: invalid_authorization_specification, invalid_password. */
const AUTH_FAILED = new Set(['28000', '28P01']);

/** Every value as the server sent it (text): the expected result compares with what psql would print. */
const AS_TEXT = { getTypeParser: () => (value: string) => value };

/**
 * PostgreSQL with pg: one client connected to the address the target policy vetted (pinned; TLS after
 * the SSLRequest, with the host name as SNI and identity), the monitor's query in the simple
 * protocol, its first column of the first row as text. Closed at the deadline.
 */
export class PgPostgresChecker implements Checker<PostgresCheckRequest> {
  readonly kind = 'postgres' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
  ) {}

  check(request: PostgresCheckRequest, context: CheckContext): Promise<CheckResult> {
    return runDatabaseProbe(request, context, async (host, progress) => {
      // Loaded with the first PostgreSQL check, as the other client libraries.
      const { default: pg } = await pgClient();
      const addresses = await vetTarget(this.policy, host);
      const dnsAt = resolvedAt(host);
      progress.address = addresses[0]!;
      const credentials = request.credentials;
      const client = new pg.Client({
        host: addresses[0],
        port: request.port,
        user: credentials?.username ?? 'postgres',
        password: credentials?.password ?? '',
        database: request.database ?? credentials?.username ?? 'postgres',
        ssl: request.ssl === 'disable' ? false : this.tls.options(host),
        connectionTimeoutMillis: request.timeoutSeconds * 1000,
        application_name: 'monitoring-check',
        types: AS_TEXT,
      });
      client.on('error', ignoreError);
      const unsubscribe = context.deadline.onPassed(() => void client.end().catch(ignoreError));
      try {
        await client.connect().catch((error: Error & { code?: string }) => {
          if (error.code && AUTH_FAILED.has(error.code)) throw new ProbeError('authenticationFailed', error.message);
          if (error.code === '3D000') throw new ProbeError('protocolError', error.message);
          throw error;
        });
        const connectAt = performance.now();
        const stream = (client as unknown as { connection: { stream: TLSSocket } }).connection.stream;
        const secured = tlsOutcome(request, request.ssl === 'disable' ? null : stream, context.now);
        const timings = { dnsAt, connectAt, tlsAt: request.ssl === 'disable' ? null : connectAt };
        const authenticated = credentials ? { authenticated: true } : {};
        if (secured.findings.length > 0)
          return { ...secured, evidence: { ...secured.evidence, ...authenticated }, timings, firstByteAt: null };
        const answer = await client.query({ text: request.query, rowMode: 'array' }).catch((error: Error) => {
          throw new ProbeError('protocolError', `The query failed: ${error.message}`);
        });
        const firstByteAt = performance.now();
        const last = Array.isArray(answer) ? (answer as { rows: unknown[][] }[]).at(-1) : answer;
        const first = last?.rows?.[0]?.[0];
        const result = first === undefined ? null : first === null ? 'NULL' : String(first);
        const findings: Finding[] = [];
        if (request.expectedResult !== null && result !== request.expectedResult)
          findings.push(down('assertionFailed', resultMismatch(request.expectedResult, result)));
        const evidence = { ...secured.evidence, ...authenticated, ...(result === null ? {} : { banner: excerpt(result) }) };
        return { findings, evidence, timings, firstByteAt };
      } finally {
        unsubscribe();
        void client.end().catch(ignoreError);
      }
    });
  }
}

/** Errors after the outcome is known (a closed connection) are of no interest; closes over nothing. */
const ignoreError = () => undefined;
