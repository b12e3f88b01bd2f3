import { DEFAULT_CHECK_CONFIG } from '../check-config';
import type { MonitorKindDescriptor } from './kind';
import { serviceCheck, tlsField } from './service';

/** A mail server's greeting (EHLO), STARTTLS or implicit TLS, and a login when credentials are set. */
export const smtp = {
  type: 'smtp',
  label: 'SMTP',
  summary: 'A mail server greeting (and logging in)',
  notes:
    'SMTP: checkMode protocol (default; EHLO, optional STARTTLS/implicit TLS and AUTH with credentials) or tcp. Default port 25 (465 implicit TLS).',
  hostname: 'any',
  port: 'protocol',
  service: { secret: 'password' },
  fields: [tlsField('starttls')],
  defaultPort: (config) => (config.tlsMode === 'implicit' ? 465 : 25),
  checkRequest: (m) => {
    const tls = m.config.tlsMode ?? 'starttls';
    return {
      kind: 'smtp',
      ...serviceCheck(m),
      tls,
      sslNoticeDays: tls === 'none' ? null : (m.config.sslNoticeDays ?? DEFAULT_CHECK_CONFIG.sslNoticeDays),
    };
  },
  sample: { hostname: 'mail.example.com', tlsMode: 'starttls', credentials: { username: 'monitor', password: 's3cret' } },
} as const satisfies MonitorKindDescriptor<'smtp'>;
