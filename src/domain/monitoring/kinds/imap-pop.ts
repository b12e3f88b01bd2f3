import { MAILBOX_PROTOCOLS } from '../service-protocols';
import type { MonitorKindDescriptor } from './kind';
import { serviceCheck, tlsField } from './service';

/** A mailbox server, IMAP or POP3, and a login when credentials are set. */
export const imapPop = {
  type: 'imap-pop',
  label: 'IMAP / POP3',
  summary: 'A mailbox server (IMAP or POP3)',
  notes:
    'IMAP/POP: protocol imap or pop3; checkMode protocol (default; default port by protocol and tlsMode: 993/143, 995/110) or tcp, which needs an explicit port (portRequiredForTcp).',
  hostname: 'any',
  port: 'protocol',
  service: { secret: 'password', tcpNeedsPort: true },
  fields: [{ name: 'protocol', label: 'Protocol', input: { kind: 'enum', values: MAILBOX_PROTOCOLS } }, tlsField('implicit')],
  defaultPort: (config) => {
    const implicit = config.tlsMode === 'implicit';
    if (config.protocol === 'pop3') return implicit ? 995 : 110;
    return implicit ? 993 : 143;
  },
  checkRequest: (m) => ({ kind: m.config.protocol === 'pop3' ? 'pop3' : 'imap', ...serviceCheck(m), tls: m.config.tlsMode ?? 'implicit' }),
  sample: { hostname: 'imap.example.com', protocol: 'imap', credentials: { username: 'monitor', password: 's3cret' } },
} as const satisfies MonitorKindDescriptor<'imap-pop'>;
