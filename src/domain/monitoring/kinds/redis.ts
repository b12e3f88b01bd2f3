import type { MonitorKindDescriptor } from './kind';
import { bareTcp, databaseTarget, sslModeField } from './database';

const PORT = 6379;

/**
 * A Redis server: connect (TLS when sslMode says so), AUTH with the credentials when given
 * (username `default`: the password alone), one command, its reply checked against expectedReply.
 */
export const redis = {
  type: 'redis',
  label: 'Redis',
  summary: 'A Redis server answering a command',
  notes:
    'Redis: checkMode protocol (default) or tcp. Default port 6379. In protocol mode connects (sslMode), logs in with credentials when given ' +
    '(AUTH; username default sends the password alone), sends command (default PING); with expectedReply the reply must contain it.',
  hostname: 'any',
  port: 'protocol',
  service: { secret: 'password' },
  fields: [
    {
      name: 'command',
      label: 'Command',
      help: 'The command sent once logged in, its arguments separated by spaces ("double quotes" keep spaces); default PING',
      input: { kind: 'string', max: 1024 },
      default: 'PING',
      protocolOnly: true,
    },
    {
      name: 'expectedReply',
      label: 'Expected reply',
      help: 'Text the reply must contain (case-sensitive); null: any reply is up',
      hint: 'Empty: any reply',
      input: { kind: 'string', max: 1024, nullable: true },
      default: null,
    },
    sslModeField,
  ],
  defaultPort: () => PORT,
  checkRequest: (m) =>
    m.checkMode === 'tcp'
      ? bareTcp(m, PORT)
      : { kind: 'redis', ...databaseTarget(m, PORT), command: m.config.command ?? 'PING', expectedReply: m.config.expectedReply ?? null },
  sample: {
    hostname: 'cache.example.com',
    command: 'PING',
    expectedReply: 'PONG',
    credentials: { username: 'default', password: 's3cret' },
  },
} as const satisfies MonitorKindDescriptor<'redis'>;
