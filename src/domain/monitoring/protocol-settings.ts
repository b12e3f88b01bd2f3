import { AppError } from '../shared/app-error';
import { CHECK_MODES, type CheckMode, type MonitorKind } from './monitor-kind';

export const TLS_MODES = ['none', 'starttls', 'implicit'] as const;
export type TlsMode = (typeof TLS_MODES)[number];
export const MAILBOX_PROTOCOLS = ['imap', 'pop3'] as const;
export type MailboxProtocol = (typeof MAILBOX_PROTOCOLS)[number];

/** checkMode: `protocol` (default) or `tcp`; anything else answers invalidCheckMode. */
export function assertCheckMode(value: unknown): CheckMode {
  if (!(CHECK_MODES as readonly unknown[]).includes(value)) throw new AppError('invalidCheckMode', { allowed: CHECK_MODES });
  return value as CheckMode;
}

/** Well-known ports by kind, TLS mode and mailbox protocol. */
export function protocolDefaultPort(kind: MonitorKind, tlsMode: TlsMode | null, protocol: MailboxProtocol | null): number | null {
  switch (kind) {
    case 'smtp':
      return tlsMode === 'implicit' ? 465 : 25;
    case 'ssh':
      return 22;
    case 'ftp':
      return tlsMode === 'implicit' ? 990 : 21;
    case 'imap-pop':
      if (protocol === 'pop3') return tlsMode === 'implicit' ? 995 : 110;
      return tlsMode === 'implicit' ? 993 : 143;
    default:
      return null;
  }
}

/**
 * The port a check dials. An explicit port wins. SSH, SMTP and FTP fall back to their protocol
 * default in either mode; IMAP/POP in tcp mode has no single default (four well-known ports), so
 * it needs an explicit port (portRequiredForTcp). TCP monitors always need one.
 */
export function resolvePort(
  kind: MonitorKind,
  checkMode: CheckMode | null,
  port: number | null,
  tlsMode: TlsMode | null,
  protocol: MailboxProtocol | null,
): number | null {
  if (port !== null) return port;
  if (kind === 'imap-pop' && checkMode === 'tcp') throw new AppError('portRequiredForTcp');
  if (kind === 'tcp') throw new AppError('portRequiredForTcp');
  return protocolDefaultPort(kind, tlsMode, protocol);
}
