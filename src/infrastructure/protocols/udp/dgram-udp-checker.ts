import dgram from 'node:dgram';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { CheckContext, Checker, Deadline } from '../../../application/checks/ports';
import type { UdpCheckRequest } from '../../../domain/checks/check-request';
import { checkResult, down, NO_TIMINGS, phaseTimings, type CheckResult, type Finding } from '../../../domain/checks/check-result';
import { vetTarget } from '../shared/pinned-connection';
import { findingFor, ProbeError } from '../shared/probe-error';

/** How much of a reply the evidence keeps. */
const EXCERPT_CHARS = 200;

/**
 * One datagram to a vetted, pinned address and the first reply: node:dgram on a socket connected to
 * that address, so only the peer's datagrams count and an ICMP port unreachable surfaces (as
 * ECONNREFUSED). Timings: connectMs is when the socket was bound to the peer (no packet is sent
 * for that), firstByteMs when the reply came; the round trip is the difference.
 */
export class DgramUdpChecker implements Checker<UdpCheckRequest> {
  readonly kind = 'udp' as const;

  constructor(private readonly policy: TargetPolicy) {}

  async check(request: UdpCheckRequest, context: CheckContext): Promise<CheckResult> {
    const started = performance.now();
    const target = { host: request.host, address: null as string | null, port: request.port };
    try {
      const addresses = await vetTarget(this.policy, request.host);
      const dnsAt = net.isIP(request.host.replace(/^\[(.*)\]$/, '$1')) ? null : performance.now();
      const exchange = await firstReply(addresses, request, context.deadline, (address) => (target.address = address));
      const reply = exchange.reply.toString('utf8');
      const findings: Finding[] = [];
      if (request.expectedReply !== null && !reply.includes(request.expectedReply))
        findings.push(down('keywordMissing', `The reply does not contain ${JSON.stringify(request.expectedReply)}`));
      return checkResult({
        kind: 'udp',
        findings,
        checkedAt: context.now,
        evidence: { target, banner: excerpt(reply) },
        timings: phaseTimings(started, dnsAt, exchange.connectAt, null, exchange.replyAt, performance.now()),
      });
    } catch (error) {
      return checkResult({
        kind: 'udp',
        findings: [findingFor(error)],
        checkedAt: context.now,
        evidence: { target },
        timings: NO_TIMINGS(performance.now() - started),
      });
    }
  }
}

/**
 * The first vetted address's reply; one that answers port unreachable hands over to the next (as a
 * refused TCP connection does), silence does not: the deadline is the whole check's.
 */
async function firstReply(
  addresses: readonly string[],
  request: UdpCheckRequest,
  deadline: Deadline,
  trying: (address: string) => void,
): Promise<Exchange> {
  // Made when needed only: an error captures its stack, a cost every successful check would pay.
  let lastError: unknown = null;
  for (const address of addresses) {
    trying(address);
    try {
      return await exchangeDatagram(address, request, deadline);
    } catch (error) {
      lastError = error;
      if (!(error instanceof ProbeError && error.code === 'connectionRefused')) break;
    }
  }
  throw lastError ?? new ProbeError('dnsUnresolvable', `${request.host} has no address`);
}

interface Exchange {
  readonly reply: Buffer;
  readonly connectAt: number;
  readonly replyAt: number;
}

/** Sends the payload from a socket connected to address:port; answers the first datagram back, or rejects by the deadline. */
function exchangeDatagram(address: string, request: UdpCheckRequest, deadline: Deadline): Promise<Exchange> {
  if (deadline.passed) return Promise.reject(noReply(request));
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(net.isIPv6(address) ? 'udp6' : 'udp4');
    let connectAt = 0;
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      unsubscribe();
      socket.removeAllListeners();
      socket.on('error', ignoreError);
      socket.close();
      settle();
    };
    const unsubscribe = deadline.onPassed(() => finish(() => reject(noReply(request))));
    socket.once('message', (reply) => {
      const replyAt = performance.now();
      finish(() => resolve({ reply, connectAt, replyAt }));
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(() =>
        reject(
          error.code === 'ECONNREFUSED'
            ? new ProbeError('connectionRefused', `Port unreachable: ${address} port ${request.port} (ICMP)`)
            : error,
        ),
      ),
    );
    socket.connect(request.port, address, () => {
      if (settled) return;
      connectAt = performance.now();
      socket.send(Buffer.from(request.payload, 'utf8'));
    });
  });
}

const noReply = (request: UdpCheckRequest) => new ProbeError('timeout', `No reply within ${request.timeoutSeconds} s`);

/** Errors after the socket is closed are of no interest; closes over nothing. */
const ignoreError = () => undefined;

/** The reply's start, control characters escaped, for the evidence. */
function excerpt(reply: string): string {
  const head = reply.length > EXCERPT_CHARS ? `${reply.slice(0, EXCERPT_CHARS)}…` : reply;
  return head.replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1));
}
