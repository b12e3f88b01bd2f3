import type { MonitorKindDescriptor } from './kind';
import { serviceCheck } from './service';

/** An SSH server's handshake, and a login (password or private key) when credentials are set. */
export const ssh = {
  type: 'ssh',
  label: 'SSH',
  summary: 'An SSH server (and logging in)',
  notes: 'SSH: checkMode protocol (default; handshake, optional login with credentials) or tcp. Default port 22.',
  hostname: 'any',
  port: 'protocol',
  service: { secret: 'privateKey' },
  fields: [],
  defaultPort: () => 22,
  checkRequest: (m) => ({ kind: 'ssh', ...serviceCheck(m) }),
  sample: { hostname: 'bastion.example.com', port: 2222 },
} as const satisfies MonitorKindDescriptor<'ssh'>;
