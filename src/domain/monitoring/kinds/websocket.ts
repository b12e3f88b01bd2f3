import type { MonitorKindDescriptor } from './kind';
import { expectedMessageField, transportField } from './transport';

/**
 * A WebSocket endpoint: the upgrade at wss://hostname:port/path (ws:// with transport plain) must be
 * answered 101; then the optional message is sent and, with expectedMessage, the first message
 * received within the timeout must contain it.
 */
export const websocket = {
  type: 'websocket',
  label: 'WebSocket',
  summary: 'A WebSocket endpoint accepting the upgrade (and answering a message)',
  notes:
    'WebSocket: opens wss://hostname:port/path (ws:// with transport plain; port 443, 80 plain, by default); the upgrade must be answered 101. ' +
    'message, when set, is sent as one text message; with expectedMessage the first message received within timeoutSeconds must contain it.',
  hostname: 'any',
  port: 'protocol',
  fields: [
    transportField,
    {
      name: 'path',
      label: 'Path',
      help: 'The path and query of the URL, from its first / (a path without one gets it)',
      hint: 'Such as /socket?v=1',
      input: { kind: 'string', max: 2048 },
      default: '/',
    },
    {
      name: 'message',
      label: 'Message',
      help: 'Text sent as one message once the upgrade succeeded; null: nothing is sent',
      hint: 'Empty: nothing sent',
      input: { kind: 'string', max: 1024, nullable: true },
      default: null,
    },
    expectedMessageField,
  ],
  defaultPort: (config) => (config.transport === 'plain' ? 80 : 443),
  checkRequest: (m) => {
    const path = m.config.path ?? '/';
    return {
      kind: 'websocket',
      host: m.hostname ?? '',
      port: m.port ?? (m.config.transport === 'plain' ? 80 : 443),
      tls: m.config.transport !== 'plain',
      path: path.startsWith('/') ? path : `/${path}`,
      message: m.config.message ?? null,
      expectedMessage: m.config.expectedMessage ?? null,
      timeoutSeconds: m.timeoutSeconds,
    };
  },
  sample: { hostname: 'live.example.com', path: '/socket', message: 'ping', expectedMessage: 'pong' },
} as const satisfies MonitorKindDescriptor<'websocket'>;
