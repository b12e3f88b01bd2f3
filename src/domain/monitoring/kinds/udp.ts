import type { MonitorKindDescriptor } from './kind';

/**
 * A UDP service answering a datagram: the payload is sent to hostname:port and the first reply
 * within the timeout counts (one that holds expectedReply, when set). UDP has no handshake: silence
 * is down, and so is the ICMP port unreachable a closed port may answer with.
 */
export const udp = {
  type: 'udp',
  label: 'UDP',
  summary: 'A UDP service answering a datagram',
  notes:
    'UDP: sends payload (UTF-8) to hostname:port (port required) and waits for a reply within timeoutSeconds; with expectedReply the ' +
    'reply must contain it. Silence is down (UDP cannot tell a closed port from a silent one, except when the host answers ICMP port unreachable).',
  hostname: 'any',
  port: 'required',
  fields: [
    {
      name: 'payload',
      label: 'Payload',
      help: 'The datagram sent, as UTF-8 text (control characters as JSON or YAML escapes, such as \\n; NUL cannot be stored); empty: an empty datagram',
      hint: 'The text sent to the port',
      input: { kind: 'string', max: 1024 },
    },
    {
      name: 'expectedReply',
      label: 'Expected reply',
      help: 'Text the reply must contain (case-sensitive); null: any reply is up',
      hint: 'Empty: any reply',
      input: { kind: 'string', max: 1024, nullable: true },
      default: null,
    },
  ],
  defaultPort: () => null,
  checkRequest: (m) => ({
    kind: 'udp',
    host: m.hostname ?? '',
    port: m.port ?? 0,
    payload: m.config.payload ?? '',
    expectedReply: m.config.expectedReply ?? null,
    timeoutSeconds: m.timeoutSeconds,
  }),
  sample: { hostname: 'echo.example.com', port: 7, payload: 'ping\n', expectedReply: 'ping' },
} as const satisfies MonitorKindDescriptor<'udp'>;
