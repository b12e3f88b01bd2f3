import { z } from 'zod';
import { kindOf, type KindField, type PerKindType } from '../../../domain/monitoring/kinds';
import { CHECK_MODES } from '../../../domain/monitoring/monitor-kind';
import { alertFields, coded, commonCreateFields, commonPatchFields, Credentials } from './fields';

const Hostname = z.string().min(1).max(255);
const Port = z.number().int().min(1).max(65535);

/** The kind in operationIds and schema names: `listImapPopMonitors`, `DnsMonitorCreate`. */
export const pascalKind = (type: string) => type.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase());

/** What the API takes for a kind's own setting, as its descriptor declares it. */
export function settingInput(field: KindField): z.ZodType {
  const { input } = field;
  const schema =
    input.kind === 'enum'
      ? z.enum(input.values as [string, ...string[]])
      : input.kind === 'list'
        ? z.array(z.string().min(1).max(input.itemMax)).max(input.max)
        : input.nullable
          ? z.string().max(input.max).nullable()
          : z.string().max(input.max);
  return field.help ? schema.meta({ description: field.help }) : schema;
}

/** A kind's fields, from its descriptor: [create, patch]. */
function kindFields(type: PerKindType): [Record<string, z.ZodType>, Record<string, z.ZodType>] {
  const kind = kindOf(type);
  const hostname = Hostname.meta({ description: kind.hostnameHelp ?? 'A public host name or address (invalidHostname)' });
  const own = (creating: boolean) =>
    Object.fromEntries(
      kind.fields.map((f) => [f.name, creating && f.default === undefined ? settingInput(f) : settingInput(f).optional()]),
    );
  const ports: Record<typeof kind.port, Record<string, z.ZodType>> = {
    none: {},
    required: { port: Port },
    protocol: {
      port: Port.nullable()
        .optional()
        .meta({
          description: kind.service?.tcpNeedsPort ? 'Required in tcp checkMode (portRequiredForTcp)' : 'Default: the protocol port',
        }),
    },
  };
  const port = ports[kind.port];
  if (!kind.service)
    return [
      { hostname, ...port, ...own(true) },
      { hostname, ...port, ...own(false) },
    ];
  const service = { credentials: Credentials.optional() };
  return [
    {
      hostname,
      ...port,
      ...own(true),
      ...service,
      checkMode: z.enum(CHECK_MODES).optional().meta({ description: 'protocol (default) or tcp (bare port check, no credentials)' }),
    },
    {
      hostname,
      ...port,
      ...own(false),
      ...service,
      checkMode: coded({ type: 'string', enum: [...CHECK_MODES], description: 'invalidCheckMode' }),
    },
  ];
}

const optional = (fields: Record<string, z.ZodType>) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v instanceof z.ZodOptional ? v : v.optional()]));

export function monitorBodies(type: PerKindType) {
  const [create, patch] = kindFields(type);
  const id = pascalKind(type);
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
