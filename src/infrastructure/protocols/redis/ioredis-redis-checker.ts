import { performance } from 'node:perf_hooks';
import type { TLSSocket } from 'node:tls';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { RedisCheckRequest } from '../../../domain/checks/check-request';
import { down, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { vetTarget } from '../shared/pinned-connection';
import { ProbeError } from '../shared/probe-error';
import { excerpt, resolvedAt, runDatabaseProbe, tlsOutcome } from '../shared/database-probe';
import type { SharedTlsContext } from '../shared/tls-context';
import { lazyModule } from '../shared/lazy-module';

/** Loaded with the first check of this kind, then kept (see lazyModule). */
const ioredis = lazyModule(() => import('ioredis'));

/**
 * Redis with ioredis: one connection to the address the target policy vetted (pinned; TLS with the
 * host name as SNI and identity), AUTH sent by the checker itself (so a refused login is told apart
 * from a refused command), then the monitor's command. No retries, no reconnection, no offline
 * queue: one check is one attempt, closed at the deadline.
 */
export class IoredisRedisChecker implements Checker<RedisCheckRequest> {
  readonly kind = 'redis' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
  ) {}

  check(request: RedisCheckRequest, context: CheckContext): Promise<CheckResult> {
    return runDatabaseProbe(request, context, async (host, progress) => {
      // Loaded with the first Redis check: a service without one never holds it.
      const { Redis } = await ioredis();
      const addresses = await vetTarget(this.policy, host);
      const dnsAt = resolvedAt(host);
      progress.address = addresses[0]!;
      const client = new Redis({
        host: addresses[0],
        port: request.port,
        lazyConnect: true,
        connectTimeout: request.timeoutSeconds * 1000,
        retryStrategy: () => null,
        reconnectOnError: () => false,
        maxRetriesPerRequest: 0,
        enableReadyCheck: false,
        autoResendUnfulfilledCommands: false,
        disableClientInfo: true,
        protocol: 2, // RESP2: no HELLO before AUTH, and every server version speaks it
        ...(request.ssl === 'disable' ? {} : { tls: this.tls.options(host) }),
      });
      // ioredis rejects a call on a lost connection with "Connection is closed."; the socket's own error says why
      let socketError: Error | null = null;
      client.on('error', (error: Error) => (socketError ??= error));
      const why = (error: Error) => {
        throw socketError ?? error;
      };
      const unsubscribe = context.deadline.onPassed(() => client.disconnect());
      try {
        await client.connect().catch(why);
        const connectAt = performance.now();
        const tlsAt = request.ssl === 'disable' ? null : connectAt;
        const secured = tlsOutcome(request, request.ssl === 'disable' ? null : (client.stream as TLSSocket), context.now);
        const timings = { dnsAt, connectAt, tlsAt };
        if (secured.findings.length > 0) return { ...secured, timings, firstByteAt: null };
        let authenticated: boolean | undefined;
        if (request.credentials) {
          const { username, password = '' } = request.credentials;
          const args = username === 'default' ? [password] : [username, password];
          authenticated = await client.call('AUTH', ...args).then(
            () => true,
            (error: Error) => {
              if (!isServerError(error)) return why(error);
              return false;
            },
          );
          if (!authenticated)
            return {
              findings: [down('authenticationFailed', 'The server refused the credentials')],
              evidence: { ...secured.evidence, authenticated },
              timings,
              firstByteAt: null,
            };
        }
        const [name, ...rest] = commandWords(request.command);
        const reply = await client.call(name ?? 'PING', ...rest).then(replyText, (error: Error) => {
          if (!isServerError(error)) return why(error);
          throw new ProbeError(/^(NOAUTH|WRONGPASS)/.test(error.message) ? 'authenticationFailed' : 'protocolError', error.message);
        });
        const firstByteAt = performance.now();
        const findings: Finding[] = [];
        if (request.expectedReply !== null && !reply.includes(request.expectedReply))
          findings.push(down('keywordMissing', `The reply does not contain ${JSON.stringify(request.expectedReply)}`));
        const evidence = { ...secured.evidence, banner: excerpt(reply), ...(authenticated === undefined ? {} : { authenticated }) };
        return { findings, evidence, timings, firstByteAt };
      } finally {
        unsubscribe();
        client.disconnect();
      }
    });
  }
}

/** An error reply of the server (as opposed to a connection that failed). */
const isServerError = (error: Error) => error.name === 'ReplyError';

/** A command line as Redis's own CLI splits it: words separated by spaces, "double quotes" keeping spaces. */
export function commandWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g))
    words.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2]!);
  return words;
}

/** A reply as text: bulk strings as they are, numbers in decimal, nil as (nil), arrays one element per line. */
function replyText(reply: unknown): string {
  if (reply === null || reply === undefined) return '(nil)';
  if (Buffer.isBuffer(reply)) return reply.toString('utf8');
  if (Array.isArray(reply)) return reply.map(replyText).join('\n');
  return String(reply);
}
