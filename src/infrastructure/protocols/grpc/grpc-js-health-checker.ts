import net from 'node:net';
import tls, { type DetailedPeerCertificate, type PeerCertificate, type TLSSocket } from 'node:tls';
import { performance } from 'node:perf_hooks';
import type * as GrpcJs from '@grpc/grpc-js';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker } from '../../../application/checks/ports';
import type { GrpcCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, down, phaseTimings, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { describeChain, evidenceOf } from '../shared/certificate';
import { vetTarget } from '../shared/pinned-connection';
import { findingFor, ProbeError } from '../shared/probe-error';
import type { SharedTlsContext } from '../shared/tls-context';

type Grpc = typeof GrpcJs;
type HealthClient = GrpcJs.Client & {
  check(
    request: { service: string },
    options: GrpcJs.CallOptions,
    callback: (error: GrpcJs.ServiceError | null, response?: { status: string }) => void,
  ): GrpcJs.ClientUnaryCall;
};
type HealthClientConstructor = new (
  address: string,
  credentials: GrpcJs.ChannelCredentials,
  options: GrpcJs.ChannelOptions,
) => HealthClient;

/** grpc-js and the Health client made from grpc-health-check's health.proto, loaded with the first gRPC check. */
let loaded: Promise<{ grpc: Grpc; Health: HealthClientConstructor }> | undefined;
const load = () =>
  (loaded ??= (async () => {
    const [grpc, loader, { protoPath }] = await Promise.all([
      import('@grpc/grpc-js'),
      import('@grpc/proto-loader'),
      import('grpc-health-check'),
    ]);
    const definition = loader.loadSync(protoPath, { keepCase: true, enums: String, defaults: true });
    const health = grpc.loadPackageDefinition(definition) as unknown as { grpc: { health: { v1: { Health: HealthClientConstructor } } } };
    return { grpc, Health: health.grpc.health.v1.Health };
  })());

/**
 * gRPC health checking with grpc-js: grpc.health.v1.Health/Check for the monitor's service, up on
 * SERVING. The channel is made for the one address the target policy vetted (an `ipv4:`/`ipv6:`
 * target, so grpc-js resolves nothing, and no proxy from the environment), with the hostname as the
 * :authority and as the TLS name (SNI and verification, from the shared context); its own
 * subchannel pool, no retries, closed after the call. A certificate that does not verify fails the
 * connection, as any gRPC client's would: down with sslInvalid. Timings: connectMs (and tlsMs with
 * TLS) when the channel was ready, firstByteMs the answer.
 */
export class GrpcJsHealthChecker implements Checker<GrpcCheckRequest> {
  readonly kind = 'grpc' as const;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly tls: SharedTlsContext,
  ) {}

  async check(request: GrpcCheckRequest, context: CheckContext): Promise<CheckResult> {
    const { grpc, Health } = await load();
    const started = performance.now();
    const host = request.host.replace(/^\[(.*)\]$/, '$1');
    const target = { host, address: null as string | null, port: request.port };
    const marks = { dnsAt: null as number | null, readyAt: null as number | null, answerAt: null as number | null };
    let peer: { cert: PeerCertificate; error: Error | undefined } | null = null;
    const findings: Finding[] = [];
    let banner: string | undefined;
    try {
      const address = (await vetTarget(this.policy, host))[0];
      if (!net.isIP(host)) marks.dnsAt = performance.now();
      target.address = address;
      const credentials = request.tls
        ? grpc.credentials.createFromSecureContext(this.tls.context, {
            checkServerIdentity: (name, cert) => {
              const error = tls.checkServerIdentity(name, cert);
              peer = { cert, error };
              return error;
            },
          })
        : grpc.credentials.createInsecure();
      const authority = `${host.includes(':') ? `[${host}]` : host}:${request.port}`;
      const client = new Health(
        net.isIPv6(address) ? `ipv6:[${address}]:${request.port}` : `ipv4:${address}:${request.port}`,
        credentials,
        {
          'grpc.default_authority': authority,
          ...(request.tls && !net.isIP(host) ? { 'grpc.ssl_target_name_override': host } : {}),
          'grpc.enable_http_proxy': 0,
          'grpc.enable_retries': 0,
          'grpc.use_local_subchannel_pool': 1,
          'grpc.service_config_disable_resolution': 1,
        },
      );
      try {
        whenReady(grpc, client.getChannel(), request, () => (marks.readyAt = performance.now()));
        const status = await new Promise<string>((resolve, reject) => {
          const call = client.check(
            { service: request.service },
            { deadline: Date.now() + request.timeoutSeconds * 1000 },
            (error, response) => {
              unsubscribe();
              marks.answerAt = performance.now();
              if (error) reject(rpcFailure(grpc, error, request, context.deadline.passed));
              else resolve(response?.status ?? 'UNKNOWN');
            },
          );
          const unsubscribe = context.deadline.onPassed(() => call.cancel());
        });
        banner = status;
        if (status !== 'SERVING') findings.push(down('unexpectedStatus', `The health status${serviceWords(request)} is ${status}`));
      } finally {
        client.close();
      }
    } catch (error) {
      findings.push(findingFor(error));
    }
    const certificate = peer ? certificateEvidence(peer, context.now) : null;
    if (certificate && !certificate.authorized && findings[0]?.code !== 'timeout')
      findings.splice(
        0,
        findings.length,
        down('sslInvalid', `The certificate does not verify: ${certificate.authorizationError ?? 'unknown'}`),
      );
    const tlsAt = request.tls ? marks.readyAt : null;
    return checkResult({
      kind: 'grpc',
      findings,
      checkedAt: context.now,
      evidence: {
        target,
        ...(target.address ? { tls: request.tls } : {}),
        ...(certificate ? { certificate } : {}),
        ...(banner ? { banner } : {}),
      },
      timings: phaseTimings(started, marks.dnsAt, marks.readyAt, tlsAt, marks.answerAt, performance.now()),
    });
  }
}

/** Calls `ready` when the channel first reaches READY (until it shuts down or the check's time is over). */
function whenReady(grpc: Grpc, channel: ReturnType<GrpcJs.Client['getChannel']>, request: GrpcCheckRequest, ready: () => void): void {
  const { READY, SHUTDOWN } = grpc.connectivityState;
  const watch = (current: GrpcJs.connectivityState) =>
    channel.watchConnectivityState(current, Date.now() + request.timeoutSeconds * 1000, (error) => {
      if (error) return;
      const state = channel.getConnectivityState(false);
      if (state === READY) ready();
      else if (state !== SHUTDOWN) watch(state);
    });
  watch(channel.getConnectivityState(true));
}

const serviceWords = (request: GrpcCheckRequest) => (request.service ? ` of ${JSON.stringify(request.service)}` : ' of the server');

const CERTIFICATE_ERROR = /CERT|certificate|self[- ]signed|UNABLE_TO_(GET|VERIFY)|Hostname\/IP does not match/i;

/** A failed call as the probe error it stands for: the deadline, the connection's failure, or the RPC's status. */
function rpcFailure(grpc: Grpc, error: GrpcJs.ServiceError, request: GrpcCheckRequest, deadlinePassed: boolean): ProbeError {
  const name = grpc.status[error.code] ?? String(error.code);
  const details = error.details || error.message;
  if (deadlinePassed || error.code === grpc.status.DEADLINE_EXCEEDED)
    return new ProbeError('timeout', `No health answer within ${request.timeoutSeconds} s`);
  if (error.code === grpc.status.UNAVAILABLE) {
    if (request.tls && CERTIFICATE_ERROR.test(details)) return new ProbeError('sslInvalid', `The certificate does not verify: ${details}`);
    if (/ECONNREFUSED/.test(details)) return new ProbeError('connectionRefused', `Connection refused: ${details}`);
    return new ProbeError('connectionFailed', `gRPC UNAVAILABLE: ${details}`);
  }
  if (error.code === grpc.status.NOT_FOUND)
    return new ProbeError('unexpectedStatus', `The server knows no health status${serviceWords(request)} (NOT_FOUND: ${details})`);
  if (error.code === grpc.status.UNIMPLEMENTED)
    return new ProbeError('protocolError', `The server has no health service (UNIMPLEMENTED: ${details})`);
  return new ProbeError('protocolError', `gRPC ${name}: ${details}`);
}

/** The chain the handshake verified (its host-name check's verdict), with days counted from `now`. */
function certificateEvidence(peer: { cert: PeerCertificate; error: Error | undefined }, now: Date) {
  const verdict = { authorized: !peer.error, authorizationError: peer.error?.message ?? null } as unknown as TLSSocket;
  const description = describeChain(verdict, peer.cert as DetailedPeerCertificate);
  return description && evidenceOf(description, now);
}
