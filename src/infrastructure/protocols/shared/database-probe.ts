import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { TLSSocket } from 'node:tls';
import type { CheckContext } from '../../../application/checks/ports';
import type { MysqlCheckRequest, PostgresCheckRequest, RedisCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, down, phaseTimings, type CheckEvidence, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { certificateOf } from './certificate';
import type { ConnectionTimings } from './pinned-connection';
import { checkTimedOut, deadlinePassed, findingFor, ProbeError } from './probe-error';

type DatabaseCheckRequest = RedisCheckRequest | PostgresCheckRequest | MysqlCheckRequest;

/** What a database probe saw: its findings and evidence, and when its phases ended (performance.now()). */
export interface DatabaseOutcome {
  findings: Finding[];
  evidence: CheckEvidence;
  timings: ConnectionTimings;
  /** When the answer to the command or query came. */
  firstByteAt: number | null;
}

/** What the probe fills in as it goes (kept when it fails half-way). */
export interface DatabaseProgress {
  /** The vetted address dialled. */
  address: string | null;
}

/**
 * The frame the database checks (Redis, PostgreSQL, MySQL) share, as runServiceProbe is the mail and
 * file services': one clock, the deadline raced (a client library hanging on a silent peer still ends
 * at it, as `timeout`), and any error the probe throws turned into a down finding.
 */
export async function runDatabaseProbe(
  request: DatabaseCheckRequest,
  context: CheckContext,
  probe: (host: string, progress: DatabaseProgress) => Promise<DatabaseOutcome>,
): Promise<CheckResult> {
  const started = performance.now();
  const host = request.host.replace(/^\[(.*)\]$/, '$1');
  const progress: DatabaseProgress = { address: null };
  let outcome: DatabaseOutcome;
  try {
    outcome = await Promise.race([probe(host, progress), deadlinePassed(context.deadline)]);
  } catch (error) {
    const timedOut = context.deadline.passed && !(error instanceof ProbeError && error.code === 'timeout');
    outcome = { findings: [findingFor(timedOut ? checkTimedOut() : error)], evidence: {}, timings: NONE, firstByteAt: null };
  }
  const t = outcome.timings;
  return checkResult({
    kind: request.kind,
    findings: outcome.findings,
    checkedAt: context.now,
    evidence: { target: { host, address: progress.address, port: request.port }, ...outcome.evidence },
    timings: phaseTimings(started, t.dnsAt, t.connectAt, t.tlsAt, outcome.firstByteAt, performance.now()),
  });
}

const NONE: ConnectionTimings = { dnsAt: null, connectAt: null, tlsAt: null };

/** When the vetting resolved a name (null for an address: no DNS). */
export const resolvedAt = (host: string): number | null => (net.isIP(host) ? null : performance.now());

/**
 * The TLS part of a database check's outcome: the peer's certificate in the evidence and, in
 * verify-full, a chain or host name that did not verify as sslInvalid (require only encrypts).
 */
export function tlsOutcome(
  request: DatabaseCheckRequest,
  socket: TLSSocket | null,
  now: Date,
): { findings: Finding[]; evidence: CheckEvidence } {
  if (request.ssl === 'disable' || !socket || typeof socket.getPeerCertificate !== 'function') return { findings: [], evidence: {} };
  const certificate = certificateOf(socket, now);
  const findings: Finding[] = [];
  if (request.ssl === 'verify-full' && !socket.authorized)
    findings.push(down('sslInvalid', `The certificate did not verify: ${String(socket.authorizationError ?? 'no certificate')}`));
  return { findings, evidence: { tls: true, ...(certificate ? { certificate } : {}) } };
}

/** Server text for the evidence: at most 200 characters, control characters escaped. */
export function excerpt(text: string): string {
  const head = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return head.replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1));
}

/** The words of a query's result that is not the expected one (the SQL kinds share them). */
export const resultMismatch = (expected: string, got: string | null): string =>
  got === null
    ? `The query returned no rows (expected ${JSON.stringify(expected)})`
    : `The query returned ${JSON.stringify(excerpt(got))}, not ${JSON.stringify(expected)}`;
