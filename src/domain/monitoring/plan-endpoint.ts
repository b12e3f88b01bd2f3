import { refusalDetails, targetRefusal } from '../shared/network/refusal-text';
import { AppError } from '../shared/app-error';
import { parseHost } from '../shared/network/host';
import { kindOf, type KindField, type PerKindType } from './kinds';
import type { MonitorConfig } from './monitor-config';
import type { CredentialsChange, MonitorCredentials, PlanStep } from './monitor-plan';
import { assertCheckMode, resolvePort } from './protocol-settings';
import { validationIssue } from './validation-issue';

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
 * Per-kind monitors, as their descriptor (./kinds) says: hostname (public for every kind that
 * connects; a name for DNS subjects), checkMode for services (tcp stores no credentials), the kind's
 * own settings (given, kept or defaulted; an address vetted as a target), and the port a check
 * dials (portRequiredForTcp).
 */
export function planEndpoint(kind: PerKindType, step: PlanStep): { credentials: CredentialsChange } {
  const { state, input, creating, targets } = step;
  const descriptor = kindOf(kind);
  if (input.hostname !== undefined) {
    const names = descriptor.hostname === 'names';
    state.hostname = hostField(input.hostname, 'hostname', names ? 'names' : 'both', step.privateNames);
    targets.push(
      names ? { field: 'hostname', host: state.hostname, mayBeUnresolvable: true } : { field: 'hostname', host: state.hostname },
    );
  }
  if (!state.hostname) throw validationIssue('hostname', 'Required', 'invalid_type');
  if (input.port !== undefined) state.port = input.port as number | null;
  if (descriptor.service) {
    if (input.checkMode !== undefined) state.checkMode = assertCheckMode(input.checkMode);
    if (state.checkMode === 'tcp' && descriptor.service.noTcpFallback)
      throw new AppError('invalidCheckMode', { field: 'checkMode', allowed: ['protocol'] });
    state.checkMode ??= 'protocol';
  }
  const config: Record<string, unknown> = { ...state.config };
  for (const field of descriptor.fields) {
    const given = input[field.name];
    const address = field.input.kind === 'string' && field.input.address === true;
    if (given !== undefined) {
      config[field.name] = address && given !== null ? hostField(given, field.name, 'addresses') : given;
      if (address && given !== null) targets.push({ field: field.name, host: config[field.name] as string });
    }
    const nullable = field.input.kind === 'string' && field.input.nullable === true;
    if (nullable ? config[field.name] === undefined : config[field.name] == null) {
      if (field.default === undefined) throw validationIssue(field.name, requiredText(field), 'invalid_type');
      config[field.name] = field.default;
    }
  }
  state.config = config as MonitorConfig;
  if (descriptor.port !== 'none')
    resolvePort(kind, state.checkMode, state.port, state.config.tlsMode ?? null, state.config.protocol ?? null);
  return { credentials: credentialsChange(descriptor.service !== undefined, state.checkMode, input.credentials, creating) };
}

const requiredText = (field: KindField) => (field.input.kind === 'enum' ? `Required: ${field.input.values.join(' or ')}` : 'Required');

function credentialsChange(isService: boolean, checkMode: string | null, sent: unknown, creating: boolean): CredentialsChange {
  if (!isService) return { kind: 'keep' };
  if (checkMode === 'tcp') return { kind: creating ? 'keep' : 'clear' };
  if (sent === null) return { kind: 'clear' };
  if (sent !== undefined) return { kind: 'set', value: sent as MonitorCredentials };
  return { kind: 'keep' };
}
