import { refusalDetails, targetRefusal } from '../shared/network/refusal-text';
import { AppError } from '../shared/app-error';
import { parseHost } from '../shared/network/host';
import { CHECK_MODE_KINDS, type MonitorKind } from './monitor-kind';
import type { CredentialsChange, MonitorCredentials, PlanStep } from './monitor-plan';
import { assertCheckMode, resolvePort, type MailboxProtocol, type TlsMode } from './protocol-settings';
import { validationIssue } from './validation-issue';

const DEFAULT_TLS: Partial<Record<MonitorKind, TlsMode>> = { smtp: 'starttls', ftp: 'none', 'imap-pop': 'implicit' };

/**
 * A host field: any spelling parsed, reserved names refused (invalidHostname); names only for DNS
 * subjects, addresses only for a DNS monitor's resolver (a nameserver is asked at its address).
 */
function hostField(value: unknown, field: string, accepts: 'names' | 'addresses' | 'both', reservedNames = false): string {
  const parsed = typeof value === 'string' ? parseHost(value, { reservedNames }) : ({ ok: false, reason: 'malformed' } as const);
  if (!parsed.ok) throw new AppError('invalidHostname', refusalDetails(field, parsed.reason), targetRefusal(field, parsed.reason));
  if (parsed.host.kind === 'ip') {
    if (accepts === 'names') throw new AppError('invalidHostname', { field, reason: 'notAName' });
    return parsed.host.address.text;
  }
  if (accepts === 'addresses') throw new AppError('invalidHostname', { field, reason: 'notAnAddress' });
  return parsed.host.name;
}

/**
 * Per-kind monitors: hostname (public for every kind that connects; a name for DNS subjects),
 * checkMode for SMTP/SSH/FTP/IMAP-POP (tcp stores no credentials), TLS mode, IMAP/POP protocol,
 * DNS record settings, and the port a check dials (portRequiredForTcp).
 */
export function planEndpoint(kind: MonitorKind, step: PlanStep): { credentials: CredentialsChange } {
  const { state, input, creating, targets } = step;
  if (input.hostname !== undefined) {
    state.hostname = hostField(input.hostname, 'hostname', kind === 'dns' ? 'names' : 'both', step.privateNames);
    targets.push(
      kind === 'dns' ? { field: 'hostname', host: state.hostname, mayBeUnresolvable: true } : { field: 'hostname', host: state.hostname },
    );
  }
  if (!state.hostname) throw validationIssue('hostname', 'Required', 'invalid_type');
  if (input.port !== undefined) state.port = input.port as number | null;
  const config = { ...state.config };
  if (CHECK_MODE_KINDS.includes(kind)) {
    if (input.checkMode !== undefined) state.checkMode = assertCheckMode(input.checkMode);
    state.checkMode ??= 'protocol';
  }
  if (DEFAULT_TLS[kind]) config.tlsMode = (input.tlsMode as TlsMode | undefined) ?? config.tlsMode ?? DEFAULT_TLS[kind]!;
  if (kind === 'imap-pop') {
    config.protocol = (input.protocol as MailboxProtocol | undefined) ?? config.protocol;
    if (!config.protocol) throw validationIssue('protocol', 'Required: imap or pop3', 'invalid_type');
  }
  if (kind === 'dns') {
    config.recordType = (input.recordType as typeof config.recordType) ?? config.recordType ?? 'A';
    if (input.expectedValues !== undefined) config.expectedValues = input.expectedValues as string[];
    config.expectedValues ??= [];
    if (input.resolver !== undefined) {
      config.resolver = input.resolver === null ? null : hostField(input.resolver, 'resolver', 'addresses');
      if (config.resolver) targets.push({ field: 'resolver', host: config.resolver });
    }
    config.resolver ??= null;
  }
  state.config = config;
  if (kind !== 'icmp' && kind !== 'dns') resolvePort(kind, state.checkMode, state.port, config.tlsMode ?? null, config.protocol ?? null);
  return { credentials: credentialsChange(kind, state.checkMode, input.credentials, creating) };
}

function credentialsChange(kind: MonitorKind, checkMode: string | null, sent: unknown, creating: boolean): CredentialsChange {
  if (!CHECK_MODE_KINDS.includes(kind)) return { kind: 'keep' };
  if (checkMode === 'tcp') return { kind: creating ? 'keep' : 'clear' };
  if (sent === null) return { kind: 'clear' };
  if (sent !== undefined) return { kind: 'set', value: sent as MonitorCredentials };
  return { kind: 'keep' };
}
