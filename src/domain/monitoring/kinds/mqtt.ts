import type { MonitorKindDescriptor } from './kind';
import { expectedMessageField, transportField } from './transport';

const portFor = (transport: string | null | undefined) => (transport === 'plain' ? 1883 : 8883);

/**
 * An MQTT broker: it must accept the connection (CONNACK), with the login when one is stored; with a
 * topic, the subscription must be granted and, with expectedMessage, the first message on the topic
 * (a retained one counts) must contain it.
 */
export const mqtt = {
  type: 'mqtt',
  label: 'MQTT',
  summary: 'An MQTT broker (logging in, and a message on a topic)',
  notes:
    'MQTT: checkMode protocol (default; MQTT 3.1.1, an optional login, anonymous otherwise) or tcp. Port 8883 (TLS) or 1883 with transport plain by default. ' +
    'The broker must accept the connection; with topic the subscription must be granted, and with expectedMessage the first message on the topic ' +
    '(a retained one counts) within timeoutSeconds must contain it.',
  hostname: 'any',
  port: 'protocol',
  service: { secret: 'password' },
  fields: [
    transportField,
    {
      name: 'topic',
      label: 'Topic',
      help: 'A topic (or filter, such as plant/+/status) subscribed to once connected; null: none. expectedMessage needs one',
      hint: 'Empty: no subscription',
      input: { kind: 'string', max: 512, nullable: true },
      default: null,
      protocolOnly: true,
    },
    { ...expectedMessageField, protocolOnly: true },
  ],
  defaultPort: (config) => portFor(config.transport),
  checkRequest: (m) => {
    const host = m.hostname ?? '';
    const port = m.port ?? portFor(m.config.transport);
    if (m.checkMode === 'tcp') return { kind: 'tcp', host, port, timeoutSeconds: m.timeoutSeconds };
    return {
      kind: 'mqtt',
      host,
      port,
      tls: m.config.transport !== 'plain',
      credentials: m.credentials,
      topic: m.config.topic ?? null,
      expectedMessage: m.config.expectedMessage ?? null,
      timeoutSeconds: m.timeoutSeconds,
    };
  },
  sample: { hostname: 'broker.example.com', topic: 'plant/1/status', expectedMessage: 'online' },
} as const satisfies MonitorKindDescriptor<'mqtt'>;
