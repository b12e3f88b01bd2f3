import type { CheckRequest, ServiceCheckRequest, TcpCheckRequest } from './check-request';

/** Protocol defaults per service and TLS mode (IMAP/POP need an explicit port in tcp mode). */
export function defaultPort(request: ServiceCheckRequest): number | null {
  const implicit = 'tls' in request && request.tls === 'implicit';
  switch (request.kind) {
    case 'ssh':
      return 22;
    case 'smtp':
      return implicit ? 465 : 25;
    case 'ftp':
      return implicit ? 990 : 21;
    case 'imap':
      return request.mode === 'tcp' ? null : implicit ? 993 : 143;
    case 'pop3':
      return request.mode === 'tcp' ? null : implicit ? 995 : 110;
  }
}

const SERVICE_KINDS = new Set<CheckRequest['kind']>(['smtp', 'ssh', 'ftp', 'imap', 'pop3']);
export const isServiceCheck = (request: CheckRequest): request is ServiceCheckRequest => SERVICE_KINDS.has(request.kind);

/** A service monitor in tcp mode is a bare port check: it becomes a TCP request (no credentials). */
export function bareTcpFor(request: ServiceCheckRequest): TcpCheckRequest | null {
  if (request.mode !== 'tcp') return null;
  const port = request.port ?? defaultPort(request);
  if (port === null) return null;
  return { kind: 'tcp', host: request.host, port, timeoutSeconds: request.timeoutSeconds };
}
