import { readBoundedBody } from './bounded-body';
import http from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { CertificateEvidence } from '../../../domain/checks/check-result';
import type { ConnectTo } from '../../../domain/shared/network/connect-host';
import { evidenceOf } from '../shared/certificate';
import type { TargetPolicy } from '../../../application/shared/target-policy';
import type { Deadline } from '../../../application/checks/ports';
import { connectPinned, type ConnectionTimings } from '../shared/pinned-connection';
import { checkTimedOut, ProbeError } from '../shared/probe-error';
import type { SharedTlsContext } from '../shared/tls-context';

export interface ExchangeRequest {
  url: URL;
  method: string;
  headers: Readonly<Record<string, string>>;
  body: string | null;
  /** Connect here instead of the url's host (Host header and SNI stay the url's; a null port is the url's). */
  connectTo?: ConnectTo | null;
  /** Sent as User-Agent unless `headers` name one (in any case): a header set later under any case replaces it. */
  userAgent: string;
  /** Keep at most this many body bytes; the rest is only counted, and reading stops past `countLimit`. */
  keepBodyBytes: number;
  countLimit: number;
  deadline: Deadline;
  /** Describe the peer certificate (https), with days counted from `now`. */
  certificateAt: Date | null;
  /**
   * https: send nothing unless the peer's chain verifies for the URL's host (sslInvalid otherwise).
   * Checks that only judge a certificate leave it off; a request that carries secrets needs it.
   */
  requireVerifiedTls?: boolean;
}

export interface ExchangeResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer | null;
  bodyBytes: number;
  /** The vetted address and the port dialled (connectTo's when it applied). */
  address: string;
  port: number;
  /** Instants (performance.now()) the connection's phases ended and the answer's first bytes (its head) arrived. */
  timings: ConnectionTimings & { firstByteAt: number };
  /** The peer certificate, when https and asked for. */
  certificate: CertificateEvidence | null;
}

/**
 * One HTTP request on a fresh connection pinned to a vetted address (never pooled, so each check
 * measures DNS, connect and TLS, and sees the certificate). node:http speaks HTTP over the socket we
 * opened: measured in bench/, it costs less CPU than undici's per-connection client for this pattern.
 */
export async function exchange(policy: TargetPolicy, tls: SharedTlsContext, request: ExchangeRequest): Promise<ExchangeResponse> {
  const { url } = request;
  const https = url.protocol === 'https:';
  const port = Number(url.port) || (https ? 443 : 80);
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const dialled = request.connectTo?.port ?? port;
  const connection = await connectPinned(policy, {
    host: request.connectTo?.host ?? hostname,
    port: dialled,
    deadline: request.deadline,
    tls: https ? { servername: hostname, context: tls } : undefined,
  });
  const { socket } = connection;
  if (https && request.requireVerifiedTls && !connection.certificate?.authorized) {
    socket.destroy();
    const why = connection.certificate?.authorizationError ?? 'no certificate';
    throw new ProbeError('sslInvalid', `the certificate of ${hostname} is not trusted (${why}): nothing was sent`);
  }
  const certificate = request.certificateAt && connection.certificate ? evidenceOf(connection.certificate, request.certificateAt) : null;
  let answered = false;
  try {
    const response = await new Promise<ExchangeResponse>((resolve, reject) => {
      const req = http.request({
        createConnection: () => socket,
        host: hostname,
        port,
        defaultPort: https ? 443 : 80,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers: { connection: 'close', 'user-agent': request.userAgent, ...request.headers },
      });
      const unsubscribe = request.deadline.onPassed(() => req.destroy(checkTimedOut()));
      req.once('error', (error) => {
        unsubscribe();
        reject(error);
      });
      req.once('response', (res) => {
        const firstByteAt = performance.now();
        readBoundedBody(
          res,
          request,
          ({ bodyBytes, body }) => {
            unsubscribe();
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              bodyBytes,
              address: connection.address,
              port: dialled,
              body,
              timings: { ...connection.timings, firstByteAt },
              certificate,
            });
          },
          (error) => {
            unsubscribe();
            reject(error);
          },
        );
      });
      req.end(request.body ?? undefined);
    });
    answered = true;
    return response;
  } finally {
    if (answered) closeAfterAnswer(socket);
    else socket.destroy();
  }
}

/** At most this long for a complete exchange's FIN to go out (a server that answered before reading a large body may never take it). */
const CLOSE_WAIT_MS = 1_000;

/**
 * Closes the connection of a complete exchange as Node's own client does: the FIN first (node:http
 * has sent it already when the request said `Connection: close`), the handle once it is out.
 * Closing the handle at once, on a connection still open both ways, makes the kernel reset it, which
 * costs both sides more than an orderly close.
 */
function closeAfterAnswer(socket: Socket): void {
  if (socket.destroyed) return;
  if (socket.writableFinished) {
    socket.destroy();
    return;
  }
  const cut = setTimeout(() => socket.destroy(), CLOSE_WAIT_MS);
  socket.once('close', () => clearTimeout(cut));
  socket.on('error', () => socket.destroy()); // a reset now changes nothing: the answer is in
  socket.once('finish', () => socket.destroy());
  if (!socket.writableEnded) socket.end();
}
