import type { MonitorKindDescriptor } from './kind';
import { serviceCheck, tlsField } from './service';

/** An FTP server's greeting, explicit (AUTH TLS) or implicit TLS, and a login (anonymous without credentials). */
export const ftp = {
  type: 'ftp',
  label: 'FTP',
  summary: 'An FTP server (and logging in)',
  notes: 'FTP: checkMode protocol (default; optional login, anonymous otherwise) or tcp. Default port 21 (990 implicit TLS).',
  hostname: 'any',
  port: 'protocol',
  service: { secret: 'password' },
  fields: [tlsField('none')],
  defaultPort: (config) => (config.tlsMode === 'implicit' ? 990 : 21),
  checkRequest: (m) => {
    const tls = m.config.tlsMode ?? 'none';
    return { kind: 'ftp', ...serviceCheck(m), tls: tls === 'starttls' ? 'explicit' : tls };
  },
  sample: { hostname: 'files.example.com', tlsMode: 'starttls' },
} as const satisfies MonitorKindDescriptor<'ftp'>;
