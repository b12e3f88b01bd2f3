import net from 'node:net';
import tls from 'node:tls';
import { performance } from 'node:perf_hooks';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { Deadline } from '../../../application/checks/ports';
import { describeChain, type ChainDescription } from './certificate';
import { checkTimedOut, ProbeError } from './probe-error';
import type { SharedTlsContext } from './tls-context';

/**
 * When each phase of one connection ended, as `performance.now()` instants (the one monotonic clock
 * every check's phases are read from; null when the phase did not happen). A check turns them into
 * its timings with phaseTimings, counted from its own start.
 */
export interface ConnectionTimings {
  dnsAt: number | null;
  connectAt: number | null;
  tlsAt: number | null;
}

export interface PinnedConnection {
  readonly socket: net.Socket | tls.TLSSocket;
  /** The peer's chain and its verdict (TLS only; null without TLS or when the peer sent no certificate). */
  readonly certificate: ChainDescription | null;
  /** The vetted address actually connected to. */
  readonly address: string;
  readonly timings: ConnectionTimings;
}

export interface ConnectOptions {
  /** The host to connect to (a name is vetted and resolved by the policy; the address is pinned). */
  host: string;
  port: number;
  deadline: Deadline;
  /** Wrap in TLS with this SNI / identity name. */
  tls?: { servername: string; context: SharedTlsContext };
  /**
   * Whether small writes go out at once (TCP_NODELAY, the default: probes exchange short commands).
   * A bare port check writes nothing: false spares it a system call per check.
   */
  noDelay?: boolean;
}

const stripBrackets = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

/**
 * The addresses the target policy allows for a host, or the probe error its refusal becomes. For
 * libraries that open their own sockets: hand them one of these addresses (pinned).
 */
export async function vetTarget(policy: TargetPolicy, host: string): Promise<readonly string[]> {
  const vetting = await policy.vet(host);
  if (vetting.ok) return vetting.addresses;
  throw vetting.reason === 'unresolvable'
    ? new ProbeError('dnsUnresolvable', `${host} does not resolve`)
    : new ProbeError('targetRejected', `${host} is not a public address (${vetting.reason})`);
}

/**
 * Vets a host through the target policy, pins one of its vetted addresses and connects to it, so
 * DNS rebinding cannot reach an address the policy refused. Tries the vetted addresses in order.
 */
export async function connectPinned(policy: TargetPolicy, options: ConnectOptions): Promise<PinnedConnection> {
  const host = stripBrackets(options.host);
  const isLiteral = net.isIP(host) !== 0;
  const addresses = await vetTarget(policy, host);
  const resolvedAt = performance.now();
  return dial(addresses, isLiteral ? null : resolvedAt, host, options);
}

/**
 * Connects to addresses the target policy vetted earlier (a connection pool's pinned addresses, kept
 * with the answer they came from): each is judged by the policy again as it is dialled, so a
 * connection never reaches an address the policy refuses now. Tries them in order.
 */
export async function connectVetted(
  policy: TargetPolicy,
  addresses: readonly string[],
  options: Omit<ConnectOptions, 'host'>,
): Promise<PinnedConnection> {
  return dial(addresses, null, addresses.join(', '), options, (address) => policy.isAllowedAddress(address));
}

/** connectPinned's addresses come straight from the policy's vetting. */
const vettedJustNow = () => true;

async function dial(
  addresses: readonly string[],
  resolvedAt: number | null,
  host: string,
  options: Omit<ConnectOptions, 'host'>,
  allowed: (address: string) => boolean = vettedJustNow,
): Promise<PinnedConnection> {
  if (options.deadline.passed) throw checkTimedOut();
  let lastError: unknown;
  for (const address of addresses) {
    if (!allowed(address)) throw new ProbeError('targetRejected', `${address} is not a public address (nonPublicAddress)`);
    try {
      const socket = await tcpConnect(address, options.port, options.deadline, options.noDelay);
      const timings: ConnectionTimings = { dnsAt: resolvedAt, connectAt: performance.now(), tlsAt: null };
      if (!options.tls) return { socket, address, timings, certificate: null };
      const { secure, certificate } = await secureChannel(socket, address, options.port, options.tls, options.deadline);
      timings.tlsAt = performance.now();
      return { socket: secure, address, timings, certificate };
    } catch (error) {
      lastError = error;
      if (options.deadline.passed || error instanceof ProbeError) break;
    }
  }
  throw lastError ?? new ProbeError('dnsUnresolvable', `${host} has no address`);
}

/** Errors of a connected socket before its user listens (or after it stopped) are dropped; closes over nothing. */
const ignoreError = () => undefined;

function tcpConnect(address: string, port: number, deadline: Deadline, noDelay = true): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port, noDelay });
    const unsubscribe = deadline.onPassed(() => socket.destroy(new ProbeError('timeout', `No connection to ${address}:${port} in time`)));
    const failed = (error: Error) => {
      unsubscribe();
      reject(error);
    };
    socket.once('connect', () => {
      unsubscribe();
      socket.removeListener('error', failed);
      socket.on('error', ignoreError);
      resolve(socket);
    });
    socket.once('error', failed);
  });
}

/**
 * TLS over a connected socket, with the peer's chain judged. A chain verified before under the same
 * name (exactly the certificates the peer sends, while its verdict stands) is not verified and
 * decoded again: the handshake trusts no root and the verdict is reused. When the peer presents
 * another chain, a new connection verifies it (the TLS time then includes that connection).
 */
async function secureChannel(socket: net.Socket, address: string, port: number, options: TlsOptions, deadline: Deadline) {
  const chains = options.context.verifiedChains;
  const target = `${address}|${port}|${options.servername}`;
  if (chains.expects(target)) {
    const { secure } = await tlsHandshake(socket, options, false, deadline);
    const known = chains.lookup(secure, options.servername);
    if (known) return { secure, certificate: known };
    secure.destroy();
    socket = await tcpConnect(address, port, deadline);
  }
  const { secure, peerCertificate } = await tlsHandshake(socket, options, true, deadline);
  const certificate = describeChain(secure, peerCertificate);
  if (certificate) chains.remember(target, secure, options.servername, certificate);
  return { secure, certificate };
}

type TlsOptions = NonNullable<ConnectOptions['tls']>;

/**
 * A handshake over `socket`. Verifying, the chain Node decodes for the host-name check is kept
 * (null when the chain did not verify, so that check did not run): decoding it again would double
 * the most expensive JavaScript step of an HTTPS check.
 */
function tlsHandshake(socket: net.Socket, options: TlsOptions, verify: boolean, deadline: Deadline) {
  return new Promise<{ secure: tls.TLSSocket; peerCertificate: tls.DetailedPeerCertificate | null }>((resolve, reject) => {
    let peerCertificate: tls.DetailedPeerCertificate | null = null;
    const secure = tls.connect({
      ...options.context.options(options.servername, verify),
      socket,
      host: options.servername,
      checkServerIdentity: (host, cert) => {
        peerCertificate = cert as tls.DetailedPeerCertificate;
        return tls.checkServerIdentity(host, cert);
      },
    });
    const unsubscribe = deadline.onPassed(() => secure.destroy(new ProbeError('timeout', 'TLS handshake timed out')));
    secure.once('secureConnect', () => {
      unsubscribe();
      secure.removeListener('error', fail);
      resolve({ secure, peerCertificate });
    });
    const fail = (error: Error) => {
      unsubscribe();
      socket.destroy();
      reject(error instanceof ProbeError ? error : new ProbeError('tlsHandshakeFailed', `TLS handshake failed: ${error.message}`));
    };
    secure.once('error', fail);
  });
}
