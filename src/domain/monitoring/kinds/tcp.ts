import type { MonitorKindDescriptor } from './kind';

/** A TCP port accepting connections. */
export const tcp = {
  type: 'tcp',
  label: 'TCP port',
  summary: 'A TCP port accepting connections',
  notes: 'TCP: connects to hostname:port (port required).',
  hostname: 'any',
  port: 'required',
  fields: [],
  defaultPort: () => null,
  checkRequest: (m) => ({ kind: 'tcp', host: m.hostname ?? '', port: m.port ?? 0, timeoutSeconds: m.timeoutSeconds }),
  sample: { hostname: 'db.example.com', port: 5432 },
} as const satisfies MonitorKindDescriptor<'tcp'>;
