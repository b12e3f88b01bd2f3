import type { ClientRequest, IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker, Deadline } from '../../../application/checks/ports';
import type { WebSocketCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, down, NO_TIMINGS, phaseTimings, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { evidenceOf } from '../shared/certificate';
import { connectPinned, type PinnedConnection } from '../shared/pinned-connection';
import { checkTimedOut, findingFor, ProbeError } from '../shared/probe-error';
import { excerpt } from '../shared/excerpt';
import type { SharedTlsContext } from '../shared/tls-context';
import { lazyModule } from '../shared/lazy-module';

/** Loaded with the first check of this kind, then kept (see lazyModule). */
const wsLibrary = lazyModule(() => import('ws'));

/**
 * A WebSocket upgrade with the `ws` client over a connection the target policy vetted and pinned
 * (TLS from the shared context, SNI and the Host header the monitor's hostname): `ws` is handed that
 * socket instead of dialling one. Up when the upgrade is answered 101 (and, with expectedMessage,
 * the first message received holds it); a certificate that does not verify is down, as a browser
 * would refuse it. Timings: firstByteMs is the upgrade's answer.
 */
export class WsWebSocketChecker implements Checker<WebSocketCheckRequest> {
  readonly kind = 'websocket' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
  ) {}

  async check(request: WebSocketCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    const host = request.host.replace(/^\[(.*)\]$/, '$1');
    const target = { host, address: null as string | null, port: request.port };
    let connection: PinnedConnection | null = null;
    try {
      connection = await connectPinned(this.policy, {
        host,
        port: request.port,
        deadline: context.deadline,
        ...(request.tls ? { tls: { servername: host, context: this.tls } } : {}),
      });
      target.address = connection.address;
      const certificate = connection.certificate ? evidenceOf(connection.certificate, context.now) : null;
      const tlsEvidence = { tls: request.tls, ...(certificate ? { certificate } : {}) };
      if (certificate && !certificate.authorized) {
        connection.socket.destroy();
        return checkResult({
          kind: 'websocket',
          findings: [down('sslInvalid', `The certificate does not verify: ${certificate.authorizationError ?? 'unknown'}`)],
          checkedAt: context.now,
          evidence: { target, ...tlsEvidence },
          timings: phaseTimings(
            started,
            connection.timings.dnsAt,
            connection.timings.connectAt,
            connection.timings.tlsAt,
            null,
            performance.now(),
          ),
        });
      }
      const session = await converse(connection, request, context.deadline);
      const findings: Finding[] = [];
      if (request.expectedMessage !== null && !session.firstMessage!.includes(request.expectedMessage))
        findings.push(down('keywordMissing', `The first message does not contain ${JSON.stringify(request.expectedMessage)}`));
      const { dnsAt, connectAt, tlsAt } = connection.timings;
      return checkResult({
        kind: 'websocket',
        findings,
        checkedAt: context.now,
        evidence: { target, ...tlsEvidence, ...(session.firstMessage === null ? {} : { banner: excerpt(session.firstMessage) }) },
        timings: phaseTimings(started, dnsAt, connectAt, tlsAt, session.upgradedAt, performance.now()),
      });
    } catch (error) {
      connection?.socket.destroy();
      const t = connection?.timings;
      return checkResult({
        kind: 'websocket',
        findings: [findingFor(error)],
        checkedAt: context.now,
        evidence: { target, ...(connection ? { tls: request.tls } : {}) },
        timings: t
          ? phaseTimings(started, t.dnsAt, t.connectAt, t.tlsAt, null, performance.now())
          : NO_TIMINGS(performance.now() - started),
      });
    }
  }
}

interface Session {
  readonly upgradedAt: number;
  /** The first message received (null when none was awaited). */
  readonly firstMessage: string | null;
}

/** The upgrade over the pinned socket, the message sent and the first one back; rejects by the deadline. */
async function converse(connection: PinnedConnection, request: WebSocketCheckRequest, deadline: Deadline): Promise<Session> {
  // Loaded with the first WebSocket check: a service without one never holds it.
  const { default: WebSocket } = await wsLibrary();
  if (deadline.passed) throw checkTimedOut();
  const authority = request.host.includes(':') ? `[${request.host}]` : request.host;
  const url = `${request.tls ? 'wss' : 'ws'}://${authority}:${request.port}${request.path}`;
  return new Promise<Session>((resolve, reject) => {
    const ws = new WebSocket(url, {
      createConnection: () => connection.socket,
      followRedirects: false,
      perMessageDeflate: false,
    });
    let upgradedAt = 0;
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      unsubscribe();
      ws.removeAllListeners();
      ws.on('error', ignoreError);
      ws.terminate();
      settle();
    };
    const unsubscribe = deadline.onPassed(() =>
      finish(() =>
        reject(new ProbeError('timeout', upgradedAt ? `No message within ${request.timeoutSeconds} s` : 'No upgrade answer in time')),
      ),
    );
    ws.on('unexpected-response', (req: ClientRequest, res: IncomingMessage) => {
      const status = `${res.statusCode ?? 0}${res.statusMessage ? ` ${res.statusMessage}` : ''}`;
      res.resume();
      req.destroy();
      finish(() => reject(new ProbeError('unexpectedStatus', `The upgrade was answered ${status}, not 101 Switching Protocols`)));
    });
    ws.on('upgrade', () => (upgradedAt = performance.now()));
    ws.on('open', () => {
      if (request.message !== null) ws.send(request.message);
      if (request.expectedMessage === null) finish(() => resolve({ upgradedAt, firstMessage: null }));
    });
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) =>
      finish(() => resolve({ upgradedAt, firstMessage: Buffer.concat(toBuffers(data)).toString('utf8') })),
    );
    ws.on('close', (code: number) =>
      finish(() => reject(new ProbeError('protocolError', `The server closed the WebSocket (code ${code}) before sending a message`))),
    );
    ws.on('error', (error: Error) => finish(() => reject(error)));
  });
}

const toBuffers = (data: Buffer | ArrayBuffer | Buffer[]): Buffer[] =>
  Array.isArray(data) ? data : [Buffer.isBuffer(data) ? data : Buffer.from(data)];

/** Errors after the session is over are of no interest; closes over nothing. */
const ignoreError = () => undefined;
