import { AppError } from '../shared/app-error';
import { type ConnectTo, parseConnectHost, policyHostOf } from '../shared/network/connect-host';

export interface ConnectSettings {
  connectHost: string | null;
  connectPort: number | null;
  connectTlsInsecure: boolean;
}

const isPort = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;

/**
 * Merges sent connect fields over the stored ones. connectHost is host[:port] (connectHostInvalid
 * when malformed, connectHostNotPublic for reserved names); its port is also stored as connectPort.
 * Port precedence: a port written in connectHost and a connectPort sent with it must agree, or the
 * write is refused with connectHostInvalid (field connectPort) - so a record read back and sent
 * again (both fields) stays valid, and a contradiction is never silently resolved. A new connectHost
 * without a port drops a port that came with the previous host:port (it belonged to that host); a
 * connectPort set on its own is kept. connectTlsInsecure must be a boolean. `effective` (HTTP page
 * checks) also requires a connectHost for connectTlsInsecure; heartbeat and scripted-browser
 * monitors accept the fields without effect (website rule 4).
 */
export function applyConnectSettings(current: ConnectSettings, patch: Record<string, unknown>, effective: boolean): ConnectSettings {
  const next = { ...current };
  if (patch.connectHost !== undefined) {
    const target = parseConnectHost(patch.connectHost);
    const previousHostPort = current.connectHost ? (parseConnectHost(current.connectHost)?.port ?? null) : null;
    next.connectHost = target?.text ?? null;
    if (target?.port != null) next.connectPort = target.port;
    else if (patch.connectPort === undefined && (target === null || previousHostPort !== null)) next.connectPort = null;
  }
  if (patch.connectPort !== undefined) {
    if (patch.connectPort !== null && !isPort(patch.connectPort)) throw new AppError('connectHostInvalid', { field: 'connectPort' });
    const hostPort = next.connectHost ? (parseConnectHost(next.connectHost)?.port ?? null) : null;
    if (hostPort !== null && patch.connectPort !== hostPort) throw new AppError('connectHostInvalid', { field: 'connectPort' });
    next.connectPort = patch.connectPort;
  }
  if (patch.connectTlsInsecure !== undefined) {
    if (typeof patch.connectTlsInsecure !== 'boolean') throw new AppError('connectHostInvalid', { field: 'connectTlsInsecure' });
    next.connectTlsInsecure = patch.connectTlsInsecure;
  }
  if (effective && next.connectTlsInsecure && !next.connectHost)
    throw new AppError('connectTlsInsecureWithoutHost', { field: 'connectTlsInsecure' });
  return next;
}

/** The host of a stored connectHost as the target policy takes it (address text or name). */
export function connectHostName(connectHost: string): string {
  return policyHostOf(parseConnectHost(connectHost)!.host);
}

/**
 * Where a check of these stored settings connects: the host split from its port once, so the target
 * policy only ever sees a host. The port written in connectHost wins over connectPort (writes keep
 * them equal; the rule only settles rows stored otherwise); neither means the url's own port. A
 * stored value that no longer parses is handed on whole, for the target policy to refuse (the check
 * is then down with targetRejected, not lost).
 */
export function connectTarget(settings: Pick<ConnectSettings, 'connectHost' | 'connectPort'>): ConnectTo | null {
  if (!settings.connectHost) return null;
  let target;
  try {
    target = parseConnectHost(settings.connectHost);
  } catch {
    return { host: settings.connectHost, port: settings.connectPort };
  }
  return target && { host: policyHostOf(target.host), port: target.port ?? settings.connectPort };
}
