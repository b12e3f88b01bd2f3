import type { MonitorKindDescriptor } from './kind';
import { transportField } from './transport';

/**
 * A gRPC server's health, by the standard health checking protocol: grpc.health.v1.Health/Check for
 * serviceName (empty: the server as a whole) must answer SERVING.
 */
export const grpc = {
  type: 'grpc',
  label: 'gRPC',
  summary: 'A gRPC server answering the standard health check',
  notes:
    'gRPC: calls grpc.health.v1.Health/Check on hostname:port (port required; TLS unless transport is plain) for serviceName ' +
    '(empty: the server as a whole). Up when the status is SERVING; NOT_SERVING, an unknown service and any RPC error are down with the reason.',
  hostname: 'any',
  port: 'required',
  fields: [
    transportField,
    {
      name: 'serviceName',
      label: 'Service name',
      help: 'The service whose health is asked, as the server registers it (such as package.Service); empty: the server as a whole',
      hint: 'Empty: the whole server',
      input: { kind: 'string', max: 200 },
      default: '',
    },
  ],
  defaultPort: () => null,
  checkRequest: (m) => ({
    kind: 'grpc',
    host: m.hostname ?? '',
    port: m.port ?? 0,
    tls: m.config.transport !== 'plain',
    service: m.config.serviceName ?? '',
    timeoutSeconds: m.timeoutSeconds,
  }),
  sample: { hostname: 'api.example.com', port: 443, serviceName: 'shop.Checkout' },
} as const satisfies MonitorKindDescriptor<'grpc'>;
