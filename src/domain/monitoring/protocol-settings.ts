import { AppError } from '../shared/app-error';
import { kindDescriptor } from './kinds';
import type { MonitorKind } from './monitor-kind';
import { CHECK_MODES, type CheckMode, type MailboxProtocol, type TlsMode } from './service-protocols';

export { MAILBOX_PROTOCOLS, TLS_MODES, type MailboxProtocol, type TlsMode } from './service-protocols';

/** checkMode: `protocol` (default) or `tcp`; anything else answers invalidCheckMode. */
export function assertCheckMode(value: unknown): CheckMode {
  if (!(CHECK_MODES as readonly unknown[]).includes(value))
    throw new AppError('invalidCheckMode', { field: 'checkMode', allowed: CHECK_MODES });
  return value as CheckMode;
}

/** A kind's well-known port for its TLS mode and mailbox protocol (its descriptor's), null when it has none. */
export function protocolDefaultPort(kind: MonitorKind, tlsMode: TlsMode | null, protocol: MailboxProtocol | null): number | null {
  return kindDescriptor(kind)?.defaultPort({ tlsMode, protocol }) ?? null;
}

/**
 * The port a check dials. An explicit port wins; a kind whose port is required (TCP) needs one, and
 * so does a service whose tcp mode has no single port (IMAP/POP: four well-known ports):
 * portRequiredForTcp. Others fall back to their protocol's port in either mode.
 */
export function resolvePort(
  kind: MonitorKind,
  checkMode: CheckMode | null,
  port: number | null,
  tlsMode: TlsMode | null,
  protocol: MailboxProtocol | null,
): number | null {
  if (port !== null) return port;
  const descriptor = kindDescriptor(kind);
  if (descriptor?.port === 'required') throw new AppError('portRequiredForTcp', { field: 'port' });
  if (descriptor?.service?.tcpNeedsPort && checkMode === 'tcp') throw new AppError('portRequiredForTcp', { field: 'port' });
  return protocolDefaultPort(kind, tlsMode, protocol);
}
