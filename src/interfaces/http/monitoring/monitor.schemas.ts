import { z } from 'zod';
import { CHECK_MODES, type PerKindType } from '../../../domain/monitoring/monitor-kind';
import { DNS_RECORD_TYPES } from '../../../domain/monitoring/monitor-config';
import { MAILBOX_PROTOCOLS, TLS_MODES } from '../../../domain/monitoring/protocol-settings';
import { alertFields, coded, commonCreateFields, commonPatchFields, Credentials } from './fields';

const Hostname = z.string().min(1).max(255);
const Port = z.number().int().min(1).max(65535);

/** Kind-specific fields: [create, patch]. */
function kindFields(type: PerKindType): [Record<string, z.ZodType>, Record<string, z.ZodType>] {
  const host = { hostname: Hostname.meta({ description: 'A public host name or address (invalidHostname)' }) };
  const service = (tls: boolean) => {
    const shared = {
      port: Port.nullable().optional().meta({ description: 'Default: the protocol port' }),
      ...(tls ? { tlsMode: z.enum(TLS_MODES).optional() } : {}),
      credentials: Credentials.optional(),
    };
    return [
      {
        ...host,
        ...shared,
        checkMode: z.enum(CHECK_MODES).optional().meta({ description: 'protocol (default) or tcp (bare port check, no credentials)' }),
      },
      { ...host, ...shared, checkMode: coded({ type: 'string', enum: [...CHECK_MODES], description: 'invalidCheckMode' }) },
    ] as [Record<string, z.ZodType>, Record<string, z.ZodType>];
  };
  switch (type) {
    case 'dns': {
      // A DNS monitor's name is vetted like every target: if it has addresses they must be public or
      // allowlisted; the resolver a monitor names is a connection and goes through the target policy.
      const dns = {
        hostname: Hostname.meta({
          description:
            'The DNS name whose records are asked for: a name, not an address; reserved names (localhost, .local, ' +
            '.internal, single labels) are refused (invalidHostname), and so is a name whose addresses are private, loopback ' +
            'or link-local unless the operator allowlisted them (CHECK_PRIVATE_ALLOWLIST), as for every other monitor. A name ' +
            'without address records (MX or TXT only) is accepted.',
        }),
        recordType: z.enum(DNS_RECORD_TYPES).optional(),
        expectedValues: z
          .array(z.string().min(1).max(1000))
          .max(20)
          .optional()
          .meta({ description: 'Answers that must be present; empty: any answer' }),
        resolver: z
          .string()
          .max(255)
          .nullable()
          .optional()
          .meta({
            description:
              "Nameserver to ask, an IP address (port 53): public, or in the operator's CHECK_PRIVATE_ALLOWLIST " +
              "(invalidHostname); null: the service's resolvers (DNS_SERVERS)",
          }),
      };
      return [dns, dns];
    }
    case 'icmp':
      return [host, host];
    case 'tcp':
      return [
        { ...host, port: Port },
        { ...host, port: Port.optional() },
      ];
    case 'ssh':
      return service(false);
    case 'smtp':
    case 'ftp':
      return service(true);
    case 'imap-pop': {
      const [create, patch] = service(true);
      const protocol = z.enum(MAILBOX_PROTOCOLS);
      return [
        { ...create, protocol, port: Port.nullable().optional().meta({ description: 'Required in tcp checkMode (portRequiredForTcp)' }) },
        { ...patch, protocol: protocol.optional() },
      ];
    }
  }
}

const optional = (fields: Record<string, z.ZodType>) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v instanceof z.ZodOptional ? v : v.optional()]));

export function monitorBodies(type: PerKindType) {
  const [create, patch] = kindFields(type);
  const id = type.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase());
  return {
    create: z
      .object({ ...commonCreateFields, ...create, ...alertFields })
      .strict()
      .meta({ id: `${id}MonitorCreate` }),
    patch: z
      .object({ ...commonPatchFields, ...optional(patch), ...alertFields })
      .strict()
      .meta({ id: `${id}MonitorPatch` }),
  };
}

export const MonitorQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    perPage: z.coerce.number().int().min(1).max(200).default(50),
    customerId: z
      .string()
      .regex(/^([1-9]\d{0,9}|[0-9a-fA-F-]{36})$/)
      .optional(),
    status: z.enum(['active', 'paused']).optional(),
    search: z.string().min(1).max(200).optional(),
    tagId: z
      .string()
      .regex(/^([1-9]\d{0,9}|[0-9a-fA-F-]{36})$/)
      .optional(),
  })
  .strict();
