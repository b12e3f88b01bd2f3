import { TLS_MODES, type TlsMode } from '../service-protocols';
import type { KindField, KindMonitor } from './kind';

/** The TLS mode of a service that speaks it, `fallback` when none is given. */
export const tlsField = (fallback: TlsMode): KindField => ({
  name: 'tlsMode',
  label: 'TLS',
  input: { kind: 'enum', values: TLS_MODES },
  default: fallback,
  protocolOnly: true,
});

/** What every service check is dialled with: its host and port, its mode and (in protocol mode) its login. */
export function serviceCheck(m: KindMonitor) {
  const mode = m.checkMode ?? 'protocol';
  return {
    host: m.hostname ?? '',
    port: m.port,
    mode,
    credentials: mode === 'tcp' ? null : m.credentials,
    timeoutSeconds: m.timeoutSeconds,
  };
}
