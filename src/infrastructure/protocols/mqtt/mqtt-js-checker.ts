import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker, Deadline } from '../../../application/checks/ports';
import type { MqttCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, down, NO_TIMINGS, phaseTimings, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { evidenceOf } from '../shared/certificate';
import { connectPinned, type PinnedConnection } from '../shared/pinned-connection';
import { checkTimedOut, findingFor, ProbeError } from '../shared/probe-error';
import { excerpt } from '../shared/excerpt';
import type { SharedTlsContext } from '../shared/tls-context';
import { lazyModule } from '../shared/lazy-module';

/** Loaded with the first check of this kind, then kept (see lazyModule). */
const mqttJs = lazyModule(() => import('mqtt'));

/** CONNACK return codes of MQTT 3.1.1 that refuse the login. */
const LOGIN_REFUSED = new Set([4, 5]);

/**
 * MQTT 3.1.1 with mqtt.js over a connection the target policy vetted and pinned (TLS from the shared
 * context, SNI the hostname): the client is built on that socket, never dials, never reconnects. Up
 * when the broker accepts the connection (CONNACK 0) and, with a topic, grants the subscription and,
 * with expectedMessage, the first message on it (a retained one counts) contains it. A clean
 * session with a random client id, disconnected at the end. Timings: firstByteMs is the CONNACK.
 */
export class MqttJsChecker implements Checker<MqttCheckRequest> {
  readonly kind = 'mqtt' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
  ) {}

  async check(request: MqttCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    const host = request.host.replace(/^\[(.*)\]$/, '$1');
    const target = { host, address: null as string | null, port: request.port };
    let connection: PinnedConnection | null = null;
    const evidence: { tls?: boolean; authenticated?: boolean } = {};
    let connackAt: number | null = null;
    const findings: Finding[] = [];
    let banner: string | undefined;
    let certificate: ReturnType<typeof evidenceOf> | null = null;
    try {
      if (request.expectedMessage !== null && request.topic === null)
        throw new ProbeError('protocolError', 'expectedMessage is set but no topic is subscribed to receive it');
      connection = await connectPinned(this.policy, {
        host,
        port: request.port,
        deadline: context.deadline,
        ...(request.tls ? { tls: { servername: host, context: this.tls } } : {}),
      });
      target.address = connection.address;
      evidence.tls = request.tls;
      certificate = connection.certificate ? evidenceOf(connection.certificate, context.now) : null;
      if (certificate && !certificate.authorized)
        throw new ProbeError('sslInvalid', `The certificate does not verify: ${certificate.authorizationError ?? 'unknown'}`);
      const session = await converse(connection, request, context.deadline, (at) => {
        connackAt = at;
        if (request.credentials) evidence.authenticated = true;
      });
      if (session.firstMessage !== null) {
        banner = excerpt(session.firstMessage);
        if (!session.firstMessage.includes(request.expectedMessage ?? ''))
          findings.push(
            down('keywordMissing', `The first message on ${request.topic} does not contain ${JSON.stringify(request.expectedMessage)}`),
          );
      }
    } catch (error) {
      connection?.socket.destroy();
      if (error instanceof ProbeError && error.code === 'authenticationFailed') evidence.authenticated = false;
      findings.push(findingFor(error));
    }
    const t = connection?.timings;
    return checkResult({
      kind: 'mqtt',
      findings,
      checkedAt: context.now,
      evidence: { target, ...evidence, ...(certificate ? { certificate } : {}), ...(banner === undefined ? {} : { banner }) },
      timings: t
        ? phaseTimings(started, t.dnsAt, t.connectAt, t.tlsAt, connackAt, performance.now())
        : NO_TIMINGS(performance.now() - started),
    });
  }
}

interface Session {
  /** The first message on the topic (null when none was awaited). */
  readonly firstMessage: string | null;
}

/** CONNECT, SUBSCRIBE and the first message over the pinned socket; rejects by the deadline. */
async function converse(
  connection: PinnedConnection,
  request: MqttCheckRequest,
  deadline: Deadline,
  connected: (at: number) => void,
): Promise<Session> {
  // Loaded with the first MQTT check: a service without one never holds it.
  const { MqttClient } = await mqttJs();
  if (deadline.passed) throw checkTimedOut();
  return new Promise<Session>((resolve, reject) => {
    let phase: 'connack' | 'suback' | 'message' = 'connack';
    let settled = false;
    const client = new MqttClient(() => connection.socket, {
      protocolVersion: 4,
      clientId: `wsm-check-${randomBytes(6).toString('hex')}`,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: request.timeoutSeconds * 1000,
      keepalive: 0,
      ...(request.credentials ? { username: request.credentials.username, password: request.credentials.password ?? '' } : {}),
    });
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      unsubscribe();
      client.removeAllListeners();
      client.on('error', ignoreError);
      client.end(phase === 'connack');
      settle();
    };
    const unsubscribe = deadline.onPassed(() => finish(() => reject(timedOut(request, phase))));
    client.on('connect', () => {
      connected(performance.now());
      if (request.topic === null) return finish(() => resolve({ firstMessage: null }));
      phase = 'suback';
      client.subscribe(request.topic, { qos: 0 }, (error, granted) => {
        if (error)
          return finish(() => reject(new ProbeError('protocolError', `The subscription to ${request.topic} failed: ${error.message}`)));
        // 0x80 in the SUBACK: the broker refuses the filter (mosquitto grants any and filters delivery by its ACL)
        if (!granted || granted.some((g) => g.qos === 128))
          return finish(() => reject(new ProbeError('protocolError', `The broker refused the subscription to ${request.topic}`)));
        if (request.expectedMessage === null) return finish(() => resolve({ firstMessage: null }));
        if (early !== null) return finish(() => resolve({ firstMessage: early }));
        phase = 'message';
      });
    });
    // mqtt.js calls the SUBACK's callback a few promise turns late: a retained message sent right
    // after the SUBACK can come first. Kept, it counts once the subscription is granted.
    let early: string | null = null;
    client.on('message', (_topic, payload) => {
      if (phase === 'message') finish(() => resolve({ firstMessage: payload.toString('utf8') }));
      else if (phase === 'suback') early ??= payload.toString('utf8');
    });
    client.on('error', (error: Error & { code?: number | string }) => finish(() => reject(refusal(error, phase))));
    client.on('close', () =>
      finish(() => reject(new ProbeError('connectionFailed', `The broker closed the connection before ${PHASE_WORDS[phase]}`))),
    );
  });
}

const PHASE_WORDS = { connack: 'accepting it (CONNACK)', suback: 'granting the subscription', message: 'a message on the topic' } as const;

function timedOut(request: MqttCheckRequest, phase: keyof typeof PHASE_WORDS): ProbeError {
  if (phase === 'message') return new ProbeError('timeout', `No message on ${request.topic} within ${request.timeoutSeconds} s`);
  return new ProbeError('timeout', `No ${phase === 'connack' ? 'CONNACK' : 'SUBACK'} within ${request.timeoutSeconds} s`);
}

/** A CONNACK refusal (its return code) as the login's or the protocol's failure; socket errors as they are. */
function refusal(error: Error & { code?: number | string }, phase: string): unknown {
  if (phase !== 'connack' || typeof error.code !== 'number') return error;
  if (LOGIN_REFUSED.has(error.code)) return new ProbeError('authenticationFailed', `The broker refused the login: ${error.message}`);
  return new ProbeError('protocolError', `The broker refused the connection: ${error.message}`);
}

/** Errors after the session is over are of no interest; closes over nothing. */
const ignoreError = () => undefined;
