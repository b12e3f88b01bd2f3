import { TRANSPORTS } from '../monitor-config';
import type { KindField } from './kind';

/** Over TLS (the default) or unencrypted: the network kinds that speak either (WebSocket, gRPC, MQTT). */
export const transportField: KindField = {
  name: 'transport',
  label: 'Transport',
  help: 'tls (the default): over TLS, the certificate in the evidence; plain: unencrypted',
  input: { kind: 'enum', values: TRANSPORTS },
  default: 'tls',
};

/** The text the first message received must contain (WebSocket, MQTT). */
export const expectedMessageField: KindField = {
  name: 'expectedMessage',
  label: 'Expected message',
  help: 'Text the first message received within the timeout must contain (case-sensitive); null: no message is awaited',
  hint: 'Empty: none awaited',
  input: { kind: 'string', max: 1024, nullable: true },
  default: null,
};
