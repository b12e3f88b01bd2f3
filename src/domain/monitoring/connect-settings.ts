import { AppError } from '../shared/app-error';
import { parseConnectHost } from '../shared/network/connect-host';

export interface ConnectSettings {
  connectHost: string | null;
  connectPort: number | null;
  connectTlsInsecure: boolean;
}

const isPort = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;

/**
 * Merges sent connect fields over the stored ones. connectHost is host[:port] (connectHostInvalid
 * when malformed, connectHostNotPublic for reserved names); a port in connectHost and connectPort
 * must agree; connectTlsInsecure must be a boolean. `effective` (HTTP page checks) also requires
 * a connectHost for connectTlsInsecure; heartbeat and scripted-browser monitors accept the fields
 * without effect (website rule 4).
 */
export function applyConnectSettings(current: ConnectSettings, patch: Record<string, unknown>, effective: boolean): ConnectSettings {
  const next = { ...current };
  if (patch.connectHost !== undefined) {
    const target = parseConnectHost(patch.connectHost);
    next.connectHost = target?.text ?? null;
    if (target?.port != null) next.connectPort = target.port;
    else if (patch.connectPort === undefined && target === null) next.connectPort = null;
  }
  if (patch.connectPort !== undefined) {
    if (patch.connectPort !== null && !isPort(patch.connectPort)) throw new AppError('connectHostInvalid', { field: 'connectPort' });
    const hostPort = next.connectHost ? parseConnectHost(next.connectHost)?.port ?? null : null;
    if (hostPort !== null && patch.connectPort !== hostPort) throw new AppError('connectHostInvalid', { field: 'connectPort' });
    next.connectPort = patch.connectPort;
  }
  if (patch.connectTlsInsecure !== undefined) {
    if (typeof patch.connectTlsInsecure !== 'boolean') throw new AppError('connectHostInvalid', { field: 'connectTlsInsecure' });
    next.connectTlsInsecure = patch.connectTlsInsecure;
  }
  if (effective && next.connectTlsInsecure && !next.connectHost) throw new AppError('connectTlsInsecureWithoutHost');
  return next;
}

/** The host of a stored connectHost as the target policy takes it (address text or name). */
export function connectHostName(connectHost: string): string {
  const host = parseConnectHost(connectHost)!.host;
  return host.kind === 'ip' ? host.address.text : host.name;
}
